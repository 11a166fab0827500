#ifndef SCLM_CARCHIVE_SHIM_H
#define SCLM_CARCHIVE_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

/// Returns `AE_IFMT`, the file-type mask of `archive_entry_filetype` (a macro Swift imports as an untyped literal).
static inline unsigned int sclm_archive_ifmt(void) { return AE_IFMT; }

/// Wraps the variadic `archive_set_error`: a client read callback failed with `errno` value `code`.
static inline void sclm_archive_set_read_error(struct archive *archive, int code) {
    archive_set_error(archive, code, "cannot read the zip: %s", strerror(code));
}

/// libarchive's entry types as plain constants (the `AE_IF*` macros contain casts Swift cannot import).
enum {
    SCLM_AE_IFREG = AE_IFREG,
    SCLM_AE_IFDIR = AE_IFDIR,
    SCLM_AE_IFLNK = AE_IFLNK,
    SCLM_AE_IFCHR = AE_IFCHR,
    SCLM_AE_IFBLK = AE_IFBLK,
    SCLM_AE_IFIFO = AE_IFIFO,
    SCLM_AE_IFSOCK = AE_IFSOCK,
};

// Extraction helpers. openat(2) is variadic (unavailable in Swift); syncfs(2) is a GNU extension that
// Swift's Glibc module does not export (declaring _GNU_SOURCE here would make this module's system types
// differ from Glibc's). Package extraction flushes a whole staging tree with one syncfs call instead of
// one fsync per file (each fsync is a journal commit on ext4).

/// Wraps `openat(2)` with an explicit `mode` (used with `O_CREAT`).
static inline int sclm_archive_openat(int dirfd, const char *path, int flags, mode_t mode) {
    return openat(dirfd, path, flags, mode);
}

extern int syncfs(int fd);

/// Wraps `syncfs(2)`: flushes the file system that holds `fd` (data and metadata of every file on it).
static inline int sclm_archive_syncfs(int fd) { return syncfs(fd); }

/// The processors this process may run on: its affinity mask (`taskset`, a cgroup cpuset, a container's
/// `--cpuset-cpus`), counted from `sched_getaffinity(2)` (declared here for the same reason as `syncfs`);
/// 0 when it cannot be read.
extern int sched_getaffinity(pid_t pid, size_t size, void *mask);

static inline int sclm_archive_allowed_processors(void) {
    unsigned long mask[64] = {0};  /* 4,096 processors */
    if (sched_getaffinity(0, sizeof mask, mask) != 0) return 0;
    int count = 0;
    for (int index = 0; index < 64; index++) count += __builtin_popcountl(mask[index]);
    return count;
}

#endif
