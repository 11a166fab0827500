#ifndef SCLM_CARCHIVE_SHIM_H
#define SCLM_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

/// Returns `AE_IFMT`, the file-type mask of `archive_entry_filetype` (a macro Swift imports as an untyped literal).
static inline unsigned int sclm_archive_ifmt(void) { return AE_IFMT; }

#endif
