// hlmat.h -- GoldSrc's texture materials: sound/materials.txt, and the material of a texture name
//
//     hlmat_t m;
//     hlmat_load(&m, text, size, HLMAT_HL);          // or HLMAT_CS; text NULL: an empty table
//     char type = hlmat_type(&m, "-0crete2");        // 'C' concrete when the file does not name it
//
// The game's code (the SDK's pm_shared.c PM_InitTextureTypes / PM_FindTextureType, and the texture
// name clean-up of ev_hldm.cpp's EV_HLDM_PlayTextureSound) reads the file once: a line is a type
// letter and a texture name. The rules, as facts (docs/goldsrc.md "Impact sounds" has the sources):
// - leading blanks are skipped; an empty line, a line starting with '/' or with anything but a
//   letter is skipped; the letter is upper-cased; blanks; then the name up to the next blank. A
//   line whose name runs to the end of the text with no blank after it is skipped (the engine's
//   line reader keeps the '\n', so this is the last line without one). Lines are read 511
//   characters at a time.
// - Half-Life keeps 512 entries and the first 12 characters of a name; Counter-Strike's client
//   (cs16-client, after the game's) 1024 and 16.
// - Looking a name up: a '-' or '+' start drops two characters (the animation / random tiling
//   prefix), then one '{', '!', '~' or ' '; the rest is cut as the entries are and compared without
//   case. A name the file does not hold is concrete ('C').
// A fixed table: nothing is allocated.
#ifndef HLMAT_H
#define HLMAT_H

#include <stddef.h>

#define HLMAT_MAX 1024         // entries kept at most (Counter-Strike's; Half-Life keeps 512)
#define HLMAT_NAME 17          // a kept name and its NUL (Counter-Strike's 16; Half-Life's 12)

enum { HLMAT_HL, HLMAT_CS };

// The SDK's CHAR_TEX_* letters (pm_materials.h; snow: cs16-client's)
enum {
    HLMAT_CONCRETE = 'C', HLMAT_METAL = 'M', HLMAT_DIRT = 'D', HLMAT_VENT = 'V', HLMAT_GRATE = 'G',
    HLMAT_TILE = 'T', HLMAT_SLOSH = 'S', HLMAT_WOOD = 'W', HLMAT_COMPUTER = 'P', HLMAT_GLASS = 'Y',
    HLMAT_FLESH = 'F', HLMAT_SNOW = 'N',
};

typedef struct {
    int count;
    int name_len;              // characters of a name kept and compared (12 or 16)
    char names[HLMAT_MAX][HLMAT_NAME];
    char types[HLMAT_MAX];
} hlmat_t;

// Read a materials.txt (text may be NULL: an empty table, every texture concrete). Returns the
// entries kept.
int hlmat_load(hlmat_t *m, const char *text, size_t size, int flavour);
// The material letter of a texture as the level names it ("-0crete2", "{grate"); 'C' when the
// table does not hold it (or name is NULL or empty).
char hlmat_type(const hlmat_t *m, const char *name);   // m NULL: concrete

#endif
