// hlmat.c -- GoldSrc's sound/materials.txt (see hlmat.h)
#include "hlmat.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define LINE_MAX_CHARS 511   // the game's line buffer (512) less its NUL

// Case-insensitive order of two kept names.
static int name_cmp(const char *a, const char *b, size_t n)
{
    return strncasecmp(a, b, n);
}

int hlmat_load(hlmat_t *m, const char *text, size_t size, int flavour)
{
    memset(m, 0, sizeof *m);
    int max = flavour == HLMAT_CS ? HLMAT_MAX : 512;
    m->name_len = flavour == HLMAT_CS ? 16 : 12;
    size_t pos = 0;
    while (text && pos < size && m->count < max) {
        // one line as the engine's reader gives it: up to and with its '\n', at most 511 characters
        char line[LINE_MAX_CHARS + 1];
        size_t n = 0;
        while (pos < size && n < LINE_MAX_CHARS) {
            char c = text[pos++];
            line[n++] = c;
            if (c == '\n')
                break;
        }
        line[n] = 0;
        size_t i = 0;
        while (line[i] && isspace((unsigned char)line[i]))
            i++;
        if (!line[i] || line[i] == '/' || !isalpha((unsigned char)line[i]))
            continue;
        char type = (char)toupper((unsigned char)line[i++]);
        while (line[i] && isspace((unsigned char)line[i]))
            i++;
        if (!line[i])
            continue;
        size_t j = i;
        while (line[j] && !isspace((unsigned char)line[j]))
            j++;
        if (!line[j])
            continue;   // no blank after the name (the last line without its '\n')
        size_t len = j - i;
        if (len > (size_t)m->name_len)
            len = (size_t)m->name_len;
        memcpy(m->names[m->count], line + i, len);
        m->names[m->count][len] = 0;
        m->types[m->count++] = type;
    }
    // the game sorts once, each entry exchanged with every later one that orders before it
    // (case-insensitive); the same exchanges here, so equal names land as they do there
    for (int i = 0; i < m->count; i++)
        for (int j = i + 1; j < m->count; j++)
            if (strcasecmp(m->names[i], m->names[j]) > 0) {
                char t[HLMAT_NAME];
                memcpy(t, m->names[i], HLMAT_NAME);
                memcpy(m->names[i], m->names[j], HLMAT_NAME);
                memcpy(m->names[j], t, HLMAT_NAME);
                char c = m->types[i];
                m->types[i] = m->types[j];
                m->types[j] = c;
            }
    return m->count;
}

char hlmat_type(const hlmat_t *m, const char *name)
{
    if (!m || !name || !name[0] || m->count <= 0)
        return HLMAT_CONCRETE;
    // the prefixes the texture's name carries that the file does not
    if ((name[0] == '-' || name[0] == '+') && name[1])
        name += 2;
    if (name[0] == '{' || name[0] == '!' || name[0] == '~' || name[0] == ' ')
        name++;
    char key[HLMAT_NAME];
    size_t len = strlen(name);
    if (len > (size_t)m->name_len)
        len = (size_t)m->name_len;
    memcpy(key, name, len);
    key[len] = 0;
    // the game's binary search over the sorted names
    int left = 0, right = m->count - 1;
    while (left <= right) {
        int pivot = (left + right) / 2;
        int v = name_cmp(key, m->names[pivot], (size_t)m->name_len);
        if (v == 0)
            return m->types[pivot];
        if (v > 0)
            left = pivot + 1;
        else
            right = pivot - 1;
    }
    return HLMAT_CONCRETE;
}
