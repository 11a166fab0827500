#ifndef SCLM_CISAL_SHIM_H
#define SCLM_CISAL_SHIM_H

// Intel ISA-L's CRC-32 (the zip/gzip polynomial, reflected): folded with PCLMULQDQ/VPCLMULQDQ where the
// processor has them, an order of magnitude faster than zlib's table-driven crc32. sclm checks each zip
// entry's CRC with it, after turning libarchive's own (zlib) check off.
#include <isa-l/crc.h>

#endif
