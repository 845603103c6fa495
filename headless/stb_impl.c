// stb_impl.c -- stb_image and stb_image_write compiled in, for the headless 32-bit build only
//
// Debian's libstb-dev ships the headers (/usr/include/stb) and a 64-bit libstb; a
// -m32 build cannot link that, so `make pentium` compiles the two implementations
// it uses from the same headers here. The 64-bit builds link -lstb and never see this file.
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
