#!/usr/bin/env bash
# Formats Swift sources in place, then lints strictly.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format format --in-place --recursive Sources Tests Package.swift
swift format lint --strict --recursive Sources Tests Package.swift
