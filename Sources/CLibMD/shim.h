#include <sha2.h>
