/* Intel ISA-L's igzip (Debian's libisal-dev): its types only. The library itself is loaded at
   run time when the system has it (Sources/MaskClean/Compression/Igzip.swift), so that neither
   the build nor the binary that travels needs it. */
#include <isa-l/igzip_lib.h>
