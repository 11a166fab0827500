"""Plays `systemctl`, `systemd-run` and `journalctl` for docs/fleet.md's walkthrough where systemd is not PID 1.

`python3 unit_stub.py ROOT systemctl enable --now sclm-sync.timer` and so on, with ROOT the scratch root the
walkthrough installs into. A service that is started (`start`, `enable --now`) runs its unit's `ExecStart=`
as systemd would set it up: `Environment=`, `EnvironmentFile=` (`-` for optional), `LoadCredential=` (copied
into a fresh `$CREDENTIALS_DIRECTORY`), `${VAR}` expanded; the unit's paths are mapped into ROOT the way the
test maps the walkthrough's (`PATHS`, JSON in the environment: real path → path used). Its output goes to
ROOT/journal/UNIT.log, which `journalctl -u UNIT` prints. `sclm play --kiosk` has no display here, so the
player runs `--headless --timeout N` instead (exit 124 counts as having played). Timers are only recorded.
"""
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

PLAY_SECONDS = "3"


def map_paths(text: str) -> str:
    for real, used in json.loads(os.environ["PATHS"]).items():
        text = text.replace(real, used)
    return text


def unit_settings(path: pathlib.Path) -> list[tuple[str, str]]:
    settings = []
    for line in map_paths(path.read_text()).splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.append((key.strip(), value.strip()))
    return settings


def credentials(specs: list[str]) -> str:
    """A fresh folder with each `ID:PATH` credential copied in as ID, as systemd's LoadCredential= does."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="credentials-"))
    for spec in specs:
        name, source = spec.split(":", 1)
        (folder / name).write_bytes(pathlib.Path(source).read_bytes())
        (folder / name).chmod(0o400)
    return str(folder)


def environment_file(path: str) -> dict[str, str]:
    optional = path.startswith("-")
    file = pathlib.Path(path.lstrip("-"))
    if not file.exists():
        if optional:
            return {}
        raise SystemExit(f"EnvironmentFile {file} is missing")
    pairs = (line.split("=", 1) for line in file.read_text().splitlines() if "=" in line and not line.startswith("#"))
    return {key.strip(): value.strip() for key, value in pairs}


def start(root: pathlib.Path, unit: str) -> int:
    settings = unit_settings(root / "usr/local/lib/systemd/system" / unit)
    env = dict(os.environ)
    for key, value in settings:
        if key == "Environment":
            name, _, text = value.partition("=")
            env[name] = text
        elif key == "EnvironmentFile":
            env.update(environment_file(value))
    specs = [value for key, value in settings if key == "LoadCredential"]
    if specs:
        env["CREDENTIALS_DIRECTORY"] = credentials(specs)
    command = re.sub(r"\$\{(\w+)\}", lambda match: env.get(match.group(1), ""), dict(settings)["ExecStart"])
    arguments = shlex.split(command)
    played = "--kiosk" in arguments
    if played:
        at = arguments.index("--kiosk")
        arguments[at:at + 1] = ["--headless", "--timeout", PLAY_SECONDS]
    journal = root / "journal"
    journal.mkdir(exist_ok=True)
    with open(journal / f"{unit}.log", "a") as log:
        status = subprocess.run(arguments, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
        log.write(f"{unit}: exit {status}\n")
    return 0 if played and status == 124 else status


def systemctl(root: pathlib.Path, arguments: list[str]) -> int:
    verb, *rest = arguments
    now = "--now" in rest
    units = [unit for unit in rest if not unit.startswith("--")]
    with open(root / "systemctl.log", "a") as log:
        log.write(" ".join(arguments) + "\n")
    if verb == "start" or (verb == "enable" and now):
        for unit in units:
            if unit.endswith(".service") and (status := start(root, unit)) != 0:
                return status
    return 0


def systemd_run(arguments: list[str]) -> int:
    properties, env = [], dict(os.environ)
    while arguments and arguments[0].startswith("--"):
        option = arguments.pop(0)
        if option.startswith("--property="):
            properties.append(option.split("=", 1)[1])
        elif option.startswith("--setenv="):
            name, _, value = option.split("=", 1)[1].partition("=")
            env[name] = value
    specs = [value.split("=", 1)[1] for value in properties if value.startswith("LoadCredential=")]
    if specs:
        env["CREDENTIALS_DIRECTORY"] = credentials(specs)
    return subprocess.run(arguments, env=env).returncode


def journalctl(root: pathlib.Path, arguments: list[str]) -> int:
    unit = arguments[arguments.index("-u") + 1]
    sys.stdout.write((root / "journal" / f"{unit}.log").read_text())
    return 0


def main() -> int:
    root, tool, *arguments = sys.argv[1:]
    root = pathlib.Path(root)
    if tool == "systemctl":
        return systemctl(root, arguments)
    if tool == "systemd-run":
        return systemd_run(arguments)
    return journalctl(root, arguments)


if __name__ == "__main__":
    sys.exit(main())
