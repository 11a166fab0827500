#ifndef SCLM_CSQLITE_SHIM_H
#define SCLM_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Returns `SQLITE_TRANSIENT`, a macro cast that Swift cannot import: SQLite copies bound text/blobs.
static inline sqlite3_destructor_type sclm_sqlite3_transient(void) { return SQLITE_TRANSIENT; }

/// Returns `SQLITE_STATIC`: the caller guarantees the bound buffer outlives the statement step.
static inline sqlite3_destructor_type sclm_sqlite3_static(void) { return SQLITE_STATIC; }

#endif
