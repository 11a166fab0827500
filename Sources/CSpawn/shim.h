// glibc's posix_spawn extensions that its <spawn.h> declares only under _GNU_SOURCE, which Swift's Glibc
// module is built without (glibc 2.34 and later have them).
#include <spawn.h>

int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
