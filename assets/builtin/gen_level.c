// gen_level.c -- maps/builtin.bsp: gen_layout turned into a Quake BSP29 level with procedural textures and baked light
//
// The level is a grid of boxes (gen.h): 20 x 13 columns of 64 units and 7 slabs
// in z (the 5 layers of 64 with layer 0 split at the pool's surface, over one
// solid slab). Every cell has one contents (solid, empty, water, sky). From that:
//
//   tree     an optimal kd-tree over the cells (fewest leaves, by dynamic
//            programming over every sub-box), splitting on cell boundaries,
//            so every leaf is a box of one contents and each node plane is
//            axial. All solid leaves are Quake's shared leaf 0.
//   faces    one 64-unit quad per cell side where an open cell (empty or
//            water) meets solid, sky or water; the water surface is a face
//            pair (one looking up into the air, one down into the water).
//            Each face sits on the one node that first separates its two
//            cells, which necessarily splits on the face's plane.
//   light    Quake's light formula (light - distance, half cosine weighted)
//            per 16-unit sample, shadows traced through the cell grid, sun
//            for what sees the sky; the flickering light (style 1) in a
//            second map.
//   door     brush model *1: a box with its own 6-node tree.
//   vis      one shared PVS row: every leaf sees every leaf (ambient sound
//            levels use lines of sight through the grid instead).
//
// Everything is deterministic: fixed seeds, no clock, integer geometry.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bsp.h"
#include "gen.h"

// ---- the grid ------------------------------------------------------------------

enum { NX = GEN_COLS, NY = GEN_ROWS, NZ = 7, NCELLS = NX * NY * NZ };

// z boundaries of the slabs: gen.h's 5 layers with layer 0 split at the pool's
// surface, and a solid slab under them all. The layout's borders are solid in x
// and y, but the pool's floor is the bottom of layer 0: without the extra slab
// it would lie on the outside of the tree, where no node could hold it.
static const int zbound[NZ + 1] = { -128, -64, (int)GEN_WATER_Z, 0, 64, 128, 192, 256 };

// Contents kinds of cells (K_SOLID must be 0: calloc'd grids start solid).
enum { K_SOLID, K_EMPTY, K_WATER, K_SKY, K_COUNT };
static const int kind_contents[K_COUNT] = { BSP_CONTENTS_SOLID, BSP_CONTENTS_EMPTY, BSP_CONTENTS_WATER,
                                            BSP_CONTENTS_SKY };

static int cell_index(int ix, int iy, int iz) { return (iz * NY + iy) * NX + ix; }

// Column (ix, iy): iy counts up from the south (row 0 of gen_layout is north).
static char layout_at(int ix, int iy) { return gen_layout[NY - 1 - iy][ix]; }

// World coordinate of boundary i along an axis.
static int bound(int axis, int i) { return axis == 2 ? zbound[i] : i * GEN_CELL; }

static const int grid_size[3] = { NX, NY, NZ };

// Contents of a cell, from the z range of its slab (gen.h's layers).
static int cell_kind(int ix, int iy, int iz)
{
    int z0 = zbound[iz], z1 = zbound[iz + 1];
    int rooms = z0 >= 0 && z1 <= 192;   // layers 1-3
    switch (layout_at(ix, iy)) {
    case 'a':
    case 'b':
        return rooms ? K_EMPTY : K_SOLID;
    case 's':
        return rooms ? K_EMPTY : z0 == 192 ? K_SKY : K_SOLID;
    case 'w':   // water up to GEN_WATER_Z, air from there up
        return z0 >= -64 && z1 <= (int)GEN_WATER_Z ? K_WATER : z0 >= (int)GEN_WATER_Z && z1 <= 192 ? K_EMPTY : K_SOLID;
    case 'c':
    case 'D':
        return z0 >= 0 && z1 <= 128 ? K_EMPTY : K_SOLID;   // layers 1-2
    default:
        return K_SOLID;
    }
}

// Kind of the cell holding a point; outside the grid is solid.
static int kind_at(const uint8_t *grid, const float p[3])
{
    float fx = floorf(p[0] / GEN_CELL), fy = floorf(p[1] / GEN_CELL);
    if (fx < 0 || fy < 0 || fx >= NX || fy >= NY || p[2] < (float)zbound[0] || p[2] >= (float)zbound[NZ])
        return K_SOLID;
    int iz = 0;
    while (p[2] >= (float)zbound[iz + 1])
        iz++;
    return grid[cell_index((int)fx, (int)fy, iz)];
}

// ---- growable byte buffer (the lumps) -----------------------------------------------

typedef struct {
    uint8_t *d;
    size_t n, cap;
    int failed;   // an allocation failed: everything after is dropped, checked once at the end
} buf_t;

static uint8_t *buf_grow(buf_t *b, size_t more)
{
    if (b->failed)
        return NULL;
    if (b->n + more > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + more)
            cap *= 2;
        uint8_t *d = realloc(b->d, cap);
        if (!d) {
            b->failed = 1;
            return NULL;
        }
        b->d = d;
        b->cap = cap;
    }
    uint8_t *p = b->d + b->n;
    b->n += more;
    return p;
}

static void put_bytes(buf_t *b, const void *src, size_t n)
{
    uint8_t *p = buf_grow(b, n);
    if (p && n)
        memcpy(p, src, n);
}

// Little-endian writes: the file format is little-endian whatever the host is.
static void put_u32(buf_t *b, uint32_t v)
{
    uint8_t p[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    put_bytes(b, p, 4);
}
static void put_i32(buf_t *b, int32_t v) { put_u32(b, (uint32_t)v); }
static void put_u16(buf_t *b, unsigned v)
{
    uint8_t p[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
    put_bytes(b, p, 2);
}
static void put_i16(buf_t *b, int v) { put_u16(b, (unsigned)(uint16_t)(int16_t)v); }
static void put_f32(buf_t *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(b, u);
}

// ---- deterministic noise ---------------------------------------------------------

typedef struct {
    uint32_t s;
} rng_t;

static uint32_t rng_next(rng_t *r) { return gen_rand(&r->s); }

// Uniform in [-0.5, 0.5): per-texel grain, so 16 levels per ramp dither smoothly.
static float grain(rng_t *r) { return (float)(rng_next(r) >> 8) / 16777216.0f - 0.5f; }

// A well-mixed 32-bit value for integer lattice coordinates (stateless, so noise can be sampled anywhere).
static uint32_t hash3(uint32_t seed, int a, int b)
{
    uint32_t h = seed * 0x9e3779b1u ^ (uint32_t)a * 0x85ebca77u ^ (uint32_t)b * 0xc2b2ae3du;
    for (int i = 0; i < 3; i++) {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        h *= 0x2c1b3c6du;
    }
    return h ^ (h >> 16);
}

static float lattice(uint32_t seed, int x, int y) { return (float)(hash3(seed, x, y) & 0xffff) / 65535.0f; }

// Value noise in [0, 1], repeating every px x py lattice cells (textures must tile).
static float vnoise(uint32_t seed, float x, float y, int px, int py)
{
    float fx = floorf(x), fy = floorf(y);
    float tx = x - fx, ty = y - fy;
    tx = tx * tx * (3 - 2 * tx);
    ty = ty * ty * (3 - 2 * ty);
    int x0 = (((int)fx % px) + px) % px, y0_ = (((int)fy % py) + py) % py;
    int x1 = (x0 + 1) % px, y1_ = (y0_ + 1) % py;
    float a = lattice(seed, x0, y0_), b = lattice(seed, x1, y0_);
    float c = lattice(seed, x0, y1_), d = lattice(seed, x1, y1_);
    float top = a + (b - a) * tx, bot = c + (d - c) * tx;
    return top + (bot - top) * ty;
}

// Fractal noise in [0, 1] over a w x h texture that tiles: cx x cy lattice cells at the coarsest octave.
static float fbm(uint32_t seed, int x, int y, int w, int h, int cx, int cy, int octaves)
{
    float sum = 0, amp = 1, norm = 0;
    for (int o = 0; o < octaves; o++) {
        int px = cx << o, py = cy << o;
        sum += amp * vnoise(seed + (uint32_t)o * 7919u, ((float)x + 0.5f) * (float)px / (float)w,
                            ((float)y + 0.5f) * (float)py / (float)h, px, py);
        norm += amp;
        amp *= 0.5f;
    }
    return sum / norm;
}

// ---- textures ----------------------------------------------------------------------

enum { T_BRICK_A, T_FLOOR_A, T_CEIL_A, T_METAL_B, T_FLOOR_B, T_CEIL_B, T_STONE_C, T_WALL_S, T_GROUND_S,
       T_TILE_W, T_DOOR, T_WATER, T_SKY, T_LIGHT0, T_LIGHT1, T_COUNT };

typedef struct {
    const char *name;
    int w, h;
} texdef_t;

static const texdef_t tex_defs[T_COUNT] = {
    { "brick_a", 64, 64 },  { "floor_a", 64, 64 },  { "ceil_a", 64, 64 },  { "metal_b", 64, 64 },
    { "floor_b", 64, 64 },  { "ceil_b", 64, 64 },   { "stone_c", 64, 64 }, { "wall_s", 64, 64 },
    { "ground_s", 64, 64 }, { "tile_w", 64, 64 },   { "door1", 64, 128 },  { "*water0", 64, 64 },
    { "sky1", 256, 128 },   { "+0light", 64, 64 },  { "+1light", 64, 64 },
};

// Palette index of a ramp at a (fractional, noisy) level, clamped to the ramp.
static uint8_t pix(int ramp, float level)
{
    int l = (int)floorf(level + 0.5f);
    return GP(ramp, l < 0 ? 0 : l > 15 ? 15 : l);
}

// Room A walls: red and brown bricks in running bond, 1-texel mortar, lit top edges.
static void paint_brick(uint8_t *p, int w, int h)
{
    rng_t rng = { 0x2545f491u };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int row = y / 16, ly = y % 16, bx = (x + (row & 1) * 16) % w, lx = bx % 32;
            float n = fbm(101, x, y, w, h, 8, 8, 3) - 0.5f, g = grain(&rng);
            if (ly == 15 || lx == 31) {
                p[y * w + x] = pix(GP_GREY, 6.5f + 3 * n + g);
                continue;
            }
            uint32_t hb = hash3(102, row, bx / 32);
            int ramp = (hb & 3) == 0 ? GP_BROWN : GP_RED;
            float lev = 6.0f + (float)((hb >> 4) % 3) * 0.7f + 4 * n + 0.9f * g;
            lev += ly == 0 ? 1.5f : ly == 14 ? -1.5f : 0;
            lev += lx == 0 ? 1.0f : lx == 30 ? -1.0f : 0;
            if (fbm(103, x, y, w, h, 16, 16, 2) > 0.74f)   // chipped pits
                lev -= 2.5f;
            p[y * w + x] = pix(ramp, lev);
        }
}

// Room A floor: large marbled tan tiles in a soft checker, dark grout.
static void paint_floor_a(uint8_t *p, int w, int h)
{
    rng_t rng = { 0x9e3779b9u };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int lx = x % 32, ly = y % 32, tile = (y / 32) * 2 + x / 32;
            float n = fbm(201, x, y, w, h, 4, 4, 4), g = grain(&rng);
            if (lx == 0 || ly == 0) {
                p[y * w + x] = pix(GP_GREY, 3 + 2 * n + 0.5f * g);
                continue;
            }
            float lev = 8.5f + (float)(hash3(202, tile, 0) % 3) * 0.5f - (float)((x / 32 + y / 32) & 1) * 1.5f;
            float vein = sinf(((float)x + (float)y * 0.5f) * 0.2f + n * 10);
            if (vein > -0.15f && vein < 0.15f)
                lev -= 1.5f;
            lev += lx == 1 || ly == 1 ? 1.2f : lx == 31 || ly == 31 ? -1.2f : 0;
            p[y * w + x] = pix(GP_TAN, lev + (n - 0.5f) * 2 + 0.6f * g);
        }
}

// Room A ceiling: wooden boards along x with grain, a butt joint and two nails per board.
static void paint_ceil_a(uint8_t *p, int w, int h)
{
    rng_t rng = { 0x7f4a7c15u };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int board = y / 16, ly = y % 16;
            uint32_t hb = hash3(301, board, 0);
            int joint = (int)(hb % (uint32_t)w), lx = ((x - joint) % w + w) % w;
            float n = fbm(302, x, y, w, h, 2, 16, 3), g = grain(&rng);
            if (ly == 0 || lx == 0) {
                p[y * w + x] = pix(GP_BROWN, 2 + 0.5f * g);
                continue;
            }
            if ((lx == 3 || lx == w - 3) && (ly == 4 || ly == 11)) {
                p[y * w + x] = pix(GP_GREY, 11);   // nail heads
                continue;
            }
            float ring = sinf((float)y * 1.3f + n * 14 + (float)((hb >> 8) & 7));
            float lev = 6 + (float)((hb >> 12) & 3) * 0.5f + ring * 0.9f + (n - 0.5f) * 2 + 0.5f * g;
            lev += ly == 1 ? 0.8f : ly == 15 ? -1.0f : 0;
            p[y * w + x] = pix(GP_BROWN, lev);
        }
}

// Room B walls: brushed blue-grey steel panels with bevelled seams, corner rivets, a little rust.
static void paint_metal_b(uint8_t *p, int w, int h)
{
    rng_t rng = { 0x1b873593u };
    static const int rivets[4][2] = { { 4, 4 }, { 27, 4 }, { 4, 27 }, { 27, 27 } };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int lx = x % 32, ly = y % 32;
            float g = grain(&rng);
            if (lx == 0 || ly == 0) {
                p[y * w + x] = pix(GP_BLUEGREY, 2 + 0.5f * g);
                continue;
            }
            float brushed = fbm(401, x, y, w, h, 2, 32, 2);
            float lev = 7 + (brushed - 0.5f) * 3 + 0.5f * g + (float)(hash3(402, x / 32, y / 32) % 3) * 0.4f;
            lev += lx == 1 || ly == 1 ? 2.0f : lx == 2 || ly == 2 ? 0.8f : lx == 31 || ly == 31 ? -2.0f : 0;
            int ramp = GP_BLUEGREY, rivet = 0;
            for (int k = 0; k < 4; k++) {
                int dx = lx - rivets[k][0], dy = ly - rivets[k][1], r2 = dx * dx + dy * dy;
                if (r2 <= 2) {
                    lev = 11 - (float)(dx + dy) * 1.2f;   // lit from the top left
                    rivet = 1;
                } else if (r2 <= 6 && dx + dy > 0) {
                    lev -= 2.5f;   // its shadow
                }
            }
            float rust = fbm(403, x, y, w, h, 4, 4, 4);
            if (!rivet && rust > 0.72f) {
                ramp = GP_BROWN;   // a few rust stains
                lev -= 2.5f + (rust - 0.72f) * 10;
            }
            p[y * w + x] = pix(ramp, lev);
        }
}

// Room B floor: steel diamond plate (raised elongated bumps alternating direction).
static void paint_floor_b(uint8_t *p, int w, int h)
{
    rng_t rng = { 0x85ebca6bu };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float g = grain(&rng), n = fbm(501, x, y, w, h, 4, 4, 3);
            float lx = (float)(x % 8) - 3.5f, ly = (float)(y % 8) - 3.5f;
            int flip = (x / 8 + y / 8) & 1;
            float along = (flip ? lx + ly : lx - ly) * 0.7071f, across = (flip ? lx - ly : lx + ly) * 0.7071f;
            float e = along * along / 10.0f + across * across / 1.4f;
            float lev = 6.5f + (n - 0.5f) * 2.5f + 0.6f * g;
            if (e <= 1)
                lev = 9.5f - (lx + ly) * 0.35f + (n - 0.5f) * 1.5f;
            else if (e <= 1.7f && lx + ly > 0)
                lev -= 1.2f;
            p[y * w + x] = pix(GP_GREY, lev);
        }
}

// Room B ceiling: a dark vent panel with slots and rivets.
static void paint_ceil_b(uint8_t *p, int w, int h)
{
    rng_t rng = { 0xcc9e2d51u };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float g = grain(&rng), n = fbm(601, x, y, w, h, 4, 4, 3);
            float lev = 4.5f + (n - 0.5f) * 2 + 0.5f * g;
            if (x < 2 || y < 2)
                lev = 1.5f;
            else if (x == 2 || y == 2)
                lev = 7;
            else if (x == w - 1 || y == h - 1)
                lev = 2.5f;
            else if (x >= 10 && x < 54 && y >= 12 && y < 52) {
                int k = (y - 12) % 8;
                lev = k < 4 ? 0.8f + 0.4f * g : k == 4 ? 7 : lev;
            }
            int cx = x < 32 ? 6 : 57, cy = y < 32 ? 6 : 57, dx = x - cx, dy = y - cy;
            if (dx * dx + dy * dy <= 2)
                lev = 9 - (float)(dx + dy);
            p[y * w + x] = pix(GP_GREY, lev);
        }
}

// Corridor: rough grey stone blocks of uneven widths, some brownish, with cracks.
static void paint_stone_c(uint8_t *p, int w, int h)
{
    static const int widths[4][3] = { { 24, 20, 20 }, { 16, 28, 20 }, { 20, 24, 20 }, { 28, 16, 20 } };
    rng_t rng = { 0xe6546b64u };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int row = (y / 16) % 4, ly = y % 16, xs = (x + row * 11) % w, k = 0, lx = xs;
            while (k < 2 && lx >= widths[row][k])
                lx -= widths[row][k++];
            int bw = widths[row][k];
            float n = fbm(701, x, y, w, h, 8, 8, 3), g = grain(&rng);
            if (ly == 15 || lx == bw - 1) {
                p[y * w + x] = pix(GP_GREY, 2.5f + g);
                continue;
            }
            uint32_t hb = hash3(702, row, k);
            int brown = (hb & 7) == 0;
            float lev = (brown ? 5.0f : 6.5f) + (float)((hb >> 3) % 3) * 0.6f + (n - 0.5f) * 4 + 0.7f * g;
            int ramp = brown ? GP_BROWN : GP_GREY;
            lev += ly == 0 ? 1.3f : ly == 14 ? -1.3f : 0;
            lev += lx == 0 ? 0.8f : lx == bw - 2 ? -0.8f : 0;
            float crack = fbm(703, x, y, w, h, 4, 4, 3);
            if (crack > 0.49f && crack < 0.51f)
                lev -= 2;
            p[y * w + x] = pix(ramp, lev);
        }
}

// Courtyard walls: big weathered tan blocks with moss in the joints.
static void paint_wall_s(uint8_t *p, int w, int h)
{
    rng_t rng = { 0x27d4eb2fu };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int row = y / 32, ly = y % 32, bx = (x + (row & 1) * 16) % w, lx = bx % 32;
            float n = fbm(801, x, y, w, h, 8, 8, 4), g = grain(&rng);
            float moss = fbm(802, x, y, w, h, 4, 4, 4) + (ly > 26 || lx > 27 ? 0.08f : 0);
            int joint = ly >= 30 || lx >= 30;
            if (moss > 0.7f) {
                p[y * w + x] = pix(GP_GREEN, 3.5f + (moss - 0.7f) * 20 + (joint ? -1.5f : 0) + g);
                continue;
            }
            if (joint) {
                p[y * w + x] = pix(GP_GREY, 3.5f + g);
                continue;
            }
            float lev = 7.5f + (float)(hash3(803, row, bx / 32) % 3) * 0.6f + (n - 0.5f) * 4 + 0.7f * g;
            lev += ly == 0 || lx == 0 ? 1.5f : ly == 29 || lx == 29 ? -1.5f : 0;
            p[y * w + x] = pix(GP_TAN, lev);
        }
}

// Courtyard ground: cobblestones (cells around jittered points) with grass and dirt between them.
static void paint_ground_s(uint8_t *p, int w, int h)
{
    enum { CELLS = 4 };
    const int cs = w / CELLS;
    rng_t rng = { 0x165667b1u };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int cx = x / cs, cy = y / cs;
            float d1 = 1e9f, d2 = 1e9f, fx1 = 0, fy1 = 0;
            uint32_t id = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int ncx = cx + dx, ncy = cy + dy;
                    // the point of a cell wraps around the texture, its position does not: tiles seamlessly
                    uint32_t hc = hash3(901, (ncx + CELLS) % CELLS, (ncy + CELLS) % CELLS);
                    float px = (float)(ncx * cs) + 3 + (float)(hc % (uint32_t)(cs - 6));
                    float py = (float)(ncy * cs) + 3 + (float)((hc >> 8) % (uint32_t)(cs - 6));
                    float ddx = (float)x + 0.5f - px, ddy = (float)y + 0.5f - py;
                    float d = sqrtf(ddx * ddx + ddy * ddy);
                    if (d < d1) {
                        d2 = d1;
                        d1 = d;
                        id = hc;
                        fx1 = ddx;
                        fy1 = ddy;
                    } else if (d < d2) {
                        d2 = d;
                    }
                }
            float g = grain(&rng), n = fbm(902, x, y, w, h, 8, 8, 3);
            float edge = d2 - d1;
            if (edge < 2.2f) {
                p[y * w + x] = n > 0.45f ? pix(GP_GREEN, 3.5f + (n - 0.45f) * 14 + g) : pix(GP_BROWN, 3 + g);
                continue;
            }
            int ramp = ((id >> 20) & 3) == 0 ? GP_TAN : GP_GREY;
            float lev = 7 + (float)((id >> 16) % 3) * 0.7f + (edge > 6 ? 1.5f : edge * 0.25f) + (n - 0.5f) * 2 + 0.6f * g;
            lev += fx1 + fy1 < -3 ? 0.8f : fx1 + fy1 > 5 ? -0.8f : 0;
            p[y * w + x] = pix(ramp, lev);
        }
}

// The pool: small light blue tiles with pale grout, a dark band of tiles at the waterline.
static void paint_tile_w(uint8_t *p, int w, int h)
{
    rng_t rng = { 0xd3a2646cu };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int lx = x % 16, ly = y % 16;
            float g = grain(&rng), n = fbm(1001, x, y, w, h, 4, 4, 3);
            if (lx == 0 || ly == 0) {
                p[y * w + x] = pix(GP_GREY, 10.5f + g);
                continue;
            }
            float lev = (y < 16 ? 5.5f : 9.5f) + (n - 0.5f) * 2 + 0.5f * g + (float)(hash3(1002, x / 16, y / 16) % 2) * 0.6f;
            lev += lx == 1 || ly == 1 ? 1.2f : lx == 15 || ly == 15 ? -1.2f : 0;
            p[y * w + x] = pix(GP_BLUE, lev);
        }
}

// The door (64 x 128, exactly its big faces): plank boards in a riveted steel frame,
// two steel bands and a yellow and black warning stripe across the middle.
static void paint_door(uint8_t *p, int w, int h)
{
    rng_t rng = { 0xfd7046c5u };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float g = grain(&rng), n = fbm(1101, x, y, w, h, 4, 8, 3);
            uint8_t c;
            int frame = x < 4 || x >= w - 4 || y < 4 || y >= h - 4;
            int band = (y >= 20 && y < 27) || (y >= h - 27 && y < h - 20);
            if (frame || band) {
                float lev = 7 + (n - 0.5f) * 2 + 0.5f * g;
                if (x == 0 || y == 0 || (band && (y == 20 || y == h - 27)))
                    lev = 10.5f;
                else if (x == w - 1 || y == h - 1 || (band && (y == 26 || y == h - 21)))
                    lev = 3;
                // rivets: every 16 texels along the middle of the frame, one per plank on the bands
                int side = x < 4 || x >= w - 4;
                int rx = side ? (x < 4 ? 2 : w - 3) : frame ? (x / 16) * 16 + 8 : ((x - 4) / 8) * 8 + 8;
                int ry = frame && !side ? (y < 4 ? 2 : h - 3) : side ? (y / 16) * 16 + 8 : (y < h / 2 ? 23 : h - 24);
                int dx = x - rx, dy = y - ry;
                if (dx * dx + dy * dy <= 1)
                    lev = 11.5f - (float)(dx + dy);
                c = pix(GP_BLUEGREY, lev);
            } else if (y >= 56 && y < 72) {
                int dark = y == 56 || y == 71 || (((x + y) / 8) & 1);
                c = dark ? pix(GP_GREY, 1.5f + 0.5f * g) : pix(GP_YELLOW, 11 + (n - 0.5f) * 2 + 0.5f * g);
            } else {
                int plank = (x - 4) / 8, lx = (x - 4) % 8;
                if (lx == 0) {
                    c = pix(GP_BROWN, 1.5f + 0.5f * g);
                } else {
                    uint32_t hb = hash3(1102, plank, 0);
                    float lev = 6.5f + sinf((float)x * 1.7f + n * 10 + (float)(hb & 7)) * 0.8f +
                                (float)((hb >> 4) & 3) * 0.5f + 0.5f * g;
                    lev += lx == 1 ? 0.8f : lx == 7 ? -0.8f : 0;
                    c = pix(GP_BROWN, lev);
                }
            }
            p[y * w + x] = c;
        }
}

// Water: teal ripples from integer-period waves (so it tiles), bright crests.
static void paint_water(uint8_t *p, int w, int h)
{
    rng_t rng = { 0x61c88647u };
    const float a = 2 * 3.14159265f / (float)w;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float fx = (float)x, fy = (float)y, g = grain(&rng), n = fbm(1201, x, y, w, h, 4, 4, 3);
            float v = sinf(a * (2 * fx + fy)) + 0.8f * sinf(a * (fx - 3 * fy) + 1.3f) + 0.5f * sinf(a * 4 * fy + n * 6);
            p[y * w + x] = v > 1.75f ? pix(GP_TEAL, 11 + g) : pix(v < -1.4f ? GP_BLUE : GP_TEAL, 6.5f + v * 1.4f + (n - 0.5f) * 2 + 0.5f * g);
        }
}

// Sky (256 x 128, as r_sky.c reads it): the left half is the front layer,
// clouds over colour 0 (see-through); the right half the back layer, deep blue.
static void paint_sky(uint8_t *p, int w, int h)
{
    rng_t rng = { 0x3c6ef372u };
    const int half = w / 2;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float g = grain(&rng);
            if (x < half) {
                float f = fbm(1301, x, y, half, h, 4, 4, 5), c = (f - 0.5f) * 4;
                float lev = 8 + c * 9 + g;
                p[y * w + x] = c <= 0 ? 0 : pix(GP_GREY, lev < 1 ? 1 : lev);   // never 0 inside a cloud
            } else {
                float f = fbm(1302, x - half, y, half, h, 3, 3, 4);
                p[y * w + x] = pix(GP_BLUE, 3.5f + f * 6 + 0.6f * g);
            }
        }
}

// Light panel (animated pair): a steel frame around a fullbright lamp behind a grille;
// frame 1 is the lamp dimmed, so the pair blinks at Quake's 5 frames a second.
static void paint_light(uint8_t *p, int w, int h, int frame)
{
    rng_t rng = { 0x8f1bbcdcu };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float g = grain(&rng);
            int inner = x >= 6 && x < w - 6 && y >= 10 && y < h - 10;
            if (!inner) {
                float lev = 7 + 0.6f * g;
                lev += x == 0 || y == 0 ? 3 : x == w - 1 || y == h - 1 ? -3 : 0;
                lev += x == 5 || y == 9 ? -3 : x == w - 6 || y == h - 10 ? 2 : 0;
                p[y * w + x] = pix(GP_BLUEGREY, lev);
                continue;
            }
            if ((x - 6) % 13 == 12) {
                p[y * w + x] = pix(GP_GREY, 3 + 0.5f * g);   // grille bars: not fullbright
                continue;
            }
            float dx = fabsf((float)x + 0.5f - (float)w / 2) / ((float)w / 2 - 6);
            float dy = fabsf((float)y + 0.5f - (float)h / 2) / ((float)h / 2 - 10);
            float d = dx > dy ? dx : dy;
            float lev = 15.4f - d * 4.5f - (frame ? 6.5f : 0) + 0.6f * g;
            p[y * w + x] = pix(GP_FIRE, lev);
        }
}

static void paint_texture(int t, uint8_t *p, int w, int h)
{
    switch (t) {
    case T_BRICK_A: paint_brick(p, w, h); break;
    case T_FLOOR_A: paint_floor_a(p, w, h); break;
    case T_CEIL_A: paint_ceil_a(p, w, h); break;
    case T_METAL_B: paint_metal_b(p, w, h); break;
    case T_FLOOR_B: paint_floor_b(p, w, h); break;
    case T_CEIL_B: paint_ceil_b(p, w, h); break;
    case T_STONE_C: paint_stone_c(p, w, h); break;
    case T_WALL_S: paint_wall_s(p, w, h); break;
    case T_GROUND_S: paint_ground_s(p, w, h); break;
    case T_TILE_W: paint_tile_w(p, w, h); break;
    case T_DOOR: paint_door(p, w, h); break;
    case T_WATER: paint_water(p, w, h); break;
    case T_SKY: paint_sky(p, w, h); break;
    case T_LIGHT0: paint_light(p, w, h, 0); break;
    case T_LIGHT1: paint_light(p, w, h, 1); break;
    default: memset(p, GP(GP_GREY, 8), (size_t)w * (size_t)h); break;
    }
}

// Nearest palette colour in [lo, hi).
static uint8_t nearest(const uint8_t pal[768], int lo, int hi, int r, int g, int b)
{
    int best = lo, bestd = 1 << 30;
    for (int i = lo; i < hi; i++) {
        int dr = pal[i * 3] - r, dg = pal[i * 3 + 1] - g, db = pal[i * 3 + 2] - b;
        int d = dr * dr * 3 + dg * dg * 4 + db * db * 2;   // green counts most, as the eye does
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    return (uint8_t)best;
}

// Mips 1..3 from mip 0: each texel the average colour of its block, matched back
// into the palette; fullbright blocks stay fullbright (else lamps would darken
// with distance). The sky is point sampled: its colour 0 means see-through.
static void make_mips(const uint8_t pal[768], uint8_t *tex, int w, int h, int point)
{
    uint8_t *dst = tex + (size_t)w * (size_t)h;
    for (int m = 1; m < 4; m++) {
        int mw = w >> m, mh = h >> m, bs = 1 << m;
        for (int y = 0; y < mh; y++)
            for (int x = 0; x < mw; x++) {
                if (point) {
                    *dst++ = tex[(size_t)(y * bs) * (size_t)w + (size_t)(x * bs)];
                    continue;
                }
                int r = 0, g = 0, b = 0, fb = 0;
                for (int yy = 0; yy < bs; yy++)
                    for (int xx = 0; xx < bs; xx++) {
                        int c = tex[(size_t)(y * bs + yy) * (size_t)w + (size_t)(x * bs + xx)];
                        r += pal[c * 3];
                        g += pal[c * 3 + 1];
                        b += pal[c * 3 + 2];
                        fb += c >= GP_FULLBRIGHT_START;
                    }
                int n = bs * bs;
                *dst++ = fb * 2 > n ? nearest(pal, GP_FULLBRIGHT_START, GP_TRANSPARENT, r / n, g / n, b / n)
                                    : nearest(pal, 0, GP_FULLBRIGHT_START, r / n, g / n, b / n);
            }
    }
}

// The miptex lump: count, offsets, then each texture (name, size, mip offsets, 4 mips).
static int write_textures(buf_t *out, const uint8_t pal[768])
{
    size_t start = out->n, ofs = 4 + 4 * (size_t)T_COUNT;
    put_i32(out, T_COUNT);
    for (int t = 0; t < T_COUNT; t++) {
        put_i32(out, (int32_t)ofs);
        ofs += 40 + (size_t)tex_defs[t].w * (size_t)tex_defs[t].h / 64 * 85;
    }
    for (int t = 0; t < T_COUNT; t++) {
        int w = tex_defs[t].w, h = tex_defs[t].h;
        size_t size = (size_t)w * (size_t)h / 64 * 85;
        uint8_t *tex = calloc(size, 1);
        if (!tex)
            return -1;
        paint_texture(t, tex, w, h);
        make_mips(pal, tex, w, h, t == T_SKY);
        char name[16] = { 0 };
        snprintf(name, sizeof name, "%s", tex_defs[t].name);
        put_bytes(out, name, 16);
        put_u32(out, (uint32_t)w);
        put_u32(out, (uint32_t)h);
        uint32_t mo = 40;
        for (int m = 0; m < 4; m++) {
            put_u32(out, mo);
            mo += (uint32_t)((w >> m) * (h >> m));
        }
        put_bytes(out, tex, size);
        free(tex);
    }
    return out->failed || out->n - start != ofs ? -1 : 0;
}

// ---- the kd-tree ---------------------------------------------------------------------

// A sub-box of the grid: [lo, hi) cell ranges per axis.
typedef struct {
    int r[3][2];
} box_t;

#define NPX (NX * (NX + 1) / 2)
#define NPY (NY * (NY + 1) / 2)
#define NPZ (NZ * (NZ + 1) / 2)

static size_t pair_id(int lo, int hi) { return (size_t)(hi * (hi - 1) / 2 + lo); }
static size_t box_id(const box_t *b)
{
    return (pair_id(b->r[0][0], b->r[0][1]) * NPY + pair_id(b->r[1][0], b->r[1][1])) * NPZ +
           pair_id(b->r[2][0], b->r[2][1]);
}

enum { SPLIT_LEAF = 3 };

typedef struct {
    const uint8_t *grid;
    int *prefix;     // per grid corner and kind: cells of that kind in [0, x) x [0, y) x [0, z)
    uint32_t *memo;  // per box: leaves (bits 0-15, 0 = not solved), axis (16-17), split position (20-27)
} kd_t;

static size_t prefix_at(int x, int y, int z, int k)
{
    return ((size_t)((z * (NY + 1) + y) * (NX + 1) + x)) * K_COUNT + (size_t)k;
}

// Cells of kind k in a box, from the prefix sums at its 8 corners (inclusion-exclusion:
// a corner with an odd number of high coordinates adds, an even number subtracts).
static int box_count(const kd_t *kd, const box_t *b, int k)
{
    int s = 0;
    for (int c = 0; c < 8; c++) {
        int hx = c & 1, hy = (c >> 1) & 1, hz = (c >> 2) & 1;
        int v = kd->prefix[prefix_at(b->r[0][hx], b->r[1][hy], b->r[2][hz], k)];
        s += (hx + hy + hz) % 2 == 1 ? v : -v;
    }
    return s;
}

static int box_volume(const box_t *b)
{
    return (b->r[0][1] - b->r[0][0]) * (b->r[1][1] - b->r[1][0]) * (b->r[2][1] - b->r[2][0]);
}

// Kind of a box when all its cells share one, else -1.
static int box_uniform(const kd_t *kd, const box_t *b)
{
    int k = kd->grid[cell_index(b->r[0][0], b->r[1][0], b->r[2][0])];
    return box_count(kd, b, k) == box_volume(b) ? k : -1;
}

// Fewest leaves a kd-tree of this box can have; remembers the split that gives
// them. Ties go to the most even split (a shallower tree).
static int kd_solve(kd_t *kd, const box_t *b)
{
    uint32_t *m = &kd->memo[box_id(b)];
    if (*m)
        return (int)(*m & 0xffff);
    if (box_uniform(kd, b) >= 0) {
        *m = 1 | (uint32_t)SPLIT_LEAF << 16;
        return 1;
    }
    int best = 1 << 30, best_axis = 0, best_at = 0, best_imb = 1 << 30;
    for (int axis = 0; axis < 3; axis++)
        for (int at = b->r[axis][0] + 1; at < b->r[axis][1]; at++) {
            box_t lo = *b, hi = *b;
            lo.r[axis][1] = at;
            hi.r[axis][0] = at;
            int c = kd_solve(kd, &lo) + kd_solve(kd, &hi);
            int imb = abs(box_volume(&lo) - box_volume(&hi));
            if (c < best || (c == best && imb < best_imb)) {
                best = c;
                best_axis = axis;
                best_at = at;
                best_imb = imb;
            }
        }
    *m = (uint32_t)best | (uint32_t)best_axis << 16 | (uint32_t)best_at << 20;
    return best;
}

// ---- the level being built ----------------------------------------------------------

typedef struct {
    int axis, pos;      // split plane: normal axis, coordinate
    int child[2];       // front (coordinate >= pos), back: >= 0 node, < 0 leaf -(l + 1)
    int mins[3], maxs[3];
    int plane;
    int firstface, numfaces;
} node_t;

typedef struct {
    int kind;
    int mins[3], maxs[3];
    int firstmark, nummarks;
    uint8_t ambient[4];
} leaf_t;

enum { F_WALL, F_SKY, F_WATER };

typedef struct {
    int mins[3], maxs[3];   // the quad: flat along axis
    int axis, side;         // plane axis; side 1: the face looks toward -axis
    int kind;               // F_*
    int tex;
    int cell;               // the open cell it looks into (-1: the door)
    int node;               // node holding it
    int leaf;               // leaf it looks into
    int texinfo, plane, firstedge, lightofs;
    uint8_t styles[4];
} face_t;

typedef struct {
    int tex, axis;
} texinfo_key_t;

enum { MAX_PLANES = 256, MAX_TEXINFO = 64 };

typedef struct {
    uint64_t *keys;
    int32_t *vals;   // -1: empty slot
    size_t cap;      // power of two
} hmap_t;

typedef struct {
    const uint8_t *palette;
    uint8_t grid[NCELLS];
    int cell_leaf[NCELLS];
    node_t *nodes;
    int num_nodes, num_world_nodes;
    leaf_t *leafs;
    int num_leafs, num_world_leafs;
    face_t *faces;
    int num_faces, num_world_faces;
    int max_faces, max_nodes, max_leafs;
    int door_mins[3], door_maxs[3];
    struct { int axis, pos; } planes[MAX_PLANES];
    int num_planes;
    texinfo_key_t texinfo[MAX_TEXINFO];
    int num_texinfo;
    hmap_t vmap, emap;
    buf_t verts, edges, surfedges, lighting, marks;
    int num_verts, num_edges, num_surfedges, num_marks;
} lvl_t;

static int hmap_init(hmap_t *h, size_t min_entries)
{
    h->cap = 64;
    while (h->cap < min_entries * 2)
        h->cap *= 2;
    h->keys = calloc(h->cap, sizeof(uint64_t));
    h->vals = malloc(h->cap * sizeof(int32_t));
    if (!h->keys || !h->vals)
        return -1;
    for (size_t i = 0; i < h->cap; i++)
        h->vals[i] = -1;
    return 0;
}

static void hmap_free(hmap_t *h)
{
    free(h->keys);
    free(h->vals);
}

// Slot of key: where it is, or the empty slot where it goes (the table never fills: sized 2x).
static size_t hmap_slot(const hmap_t *h, uint64_t key)
{
    uint64_t x = key * 0x9e3779b97f4a7c15ull;
    size_t i = (size_t)(x >> 32) & (h->cap - 1);
    while (h->vals[i] >= 0 && h->keys[i] != key)
        i = (i + 1) & (h->cap - 1);
    return i;
}

static int find_plane(lvl_t *L, int axis, int pos)
{
    for (int i = 0; i < L->num_planes; i++)
        if (L->planes[i].axis == axis && L->planes[i].pos == pos)
            return i;
    if (L->num_planes == MAX_PLANES)
        return -1;
    L->planes[L->num_planes].axis = axis;
    L->planes[L->num_planes].pos = pos;
    return L->num_planes++;
}

static int find_texinfo(lvl_t *L, int tex, int axis)
{
    for (int i = 0; i < L->num_texinfo; i++)
        if (L->texinfo[i].tex == tex && L->texinfo[i].axis == axis)
            return i;
    if (L->num_texinfo == MAX_TEXINFO)
        return -1;
    L->texinfo[L->num_texinfo].tex = tex;
    L->texinfo[L->num_texinfo].axis = axis;
    return L->num_texinfo++;
}

// Texture axes of an axial face, as Quake's texinfo for axial planes: s follows
// world axis *sa, t follows minus world axis *ta (so "up" in the picture is +z on walls).
static void tex_axes(int axis, int *sa, int *ta)
{
    *sa = axis == 0 ? 1 : 0;
    *ta = axis == 2 ? 1 : 2;
}

// The solved tree of a box as nodes (pre-order: root 0, front subtree first)
// and leaves. Returns the child number for the parent: node, or -(leaf + 1).
static int emit_tree(lvl_t *L, const kd_t *kd, const box_t *b)
{
    uint32_t m = kd->memo[box_id(b)];
    int axis = (int)(m >> 16 & 3);
    if (axis == SPLIT_LEAF) {
        int kind = box_uniform(kd, b);
        if (kind == K_SOLID)
            return -1;   // Quake's shared solid leaf 0
        if (L->num_leafs >= L->max_leafs)
            return -1;
        int li = L->num_leafs++;
        leaf_t *lf = &L->leafs[li];
        memset(lf, 0, sizeof *lf);
        lf->kind = kind;
        for (int k = 0; k < 3; k++) {
            lf->mins[k] = bound(k, b->r[k][0]);
            lf->maxs[k] = bound(k, b->r[k][1]);
        }
        for (int z = b->r[2][0]; z < b->r[2][1]; z++)
            for (int y = b->r[1][0]; y < b->r[1][1]; y++)
                for (int x = b->r[0][0]; x < b->r[0][1]; x++)
                    L->cell_leaf[cell_index(x, y, z)] = li;
        return -(li + 1);
    }
    if (L->num_nodes >= L->max_nodes)
        return -1;
    int ni = L->num_nodes++;
    int at = (int)(m >> 20 & 0xff);
    box_t lo = *b, hi = *b;
    lo.r[axis][1] = at;
    hi.r[axis][0] = at;
    node_t *nd = &L->nodes[ni];   // the array is sized up front: this stays valid
    nd->axis = axis;
    nd->pos = bound(axis, at);
    for (int k = 0; k < 3; k++) {
        nd->mins[k] = bound(k, b->r[k][0]);
        nd->maxs[k] = bound(k, b->r[k][1]);
    }
    nd->child[0] = emit_tree(L, kd, &hi);   // front: coordinates >= the plane
    nd->child[1] = emit_tree(L, kd, &lo);
    return ni;
}

static int build_tree(lvl_t *L)
{
    kd_t kd = { L->grid, NULL, NULL };
    kd.prefix = calloc((size_t)(NX + 1) * (NY + 1) * (NZ + 1) * K_COUNT, sizeof(int));
    kd.memo = calloc((size_t)NPX * NPY * NPZ, sizeof(uint32_t));
    int rc = -1;
    if (!kd.prefix || !kd.memo)
        goto done;
    for (int z = 1; z <= NZ; z++)
        for (int y = 1; y <= NY; y++)
            for (int x = 1; x <= NX; x++)
                for (int k = 0; k < K_COUNT; k++)
                    kd.prefix[prefix_at(x, y, z, k)] =
                        (L->grid[cell_index(x - 1, y - 1, z - 1)] == k) + kd.prefix[prefix_at(x - 1, y, z, k)] +
                        kd.prefix[prefix_at(x, y - 1, z, k)] + kd.prefix[prefix_at(x, y, z - 1, k)] -
                        kd.prefix[prefix_at(x - 1, y - 1, z, k)] - kd.prefix[prefix_at(x - 1, y, z - 1, k)] -
                        kd.prefix[prefix_at(x, y - 1, z - 1, k)] + kd.prefix[prefix_at(x - 1, y - 1, z - 1, k)];
    box_t all = { { { 0, NX }, { 0, NY }, { 0, NZ } } };
    int leaves = kd_solve(&kd, &all);
    // leaves - 1 world nodes, 6 door nodes; world leaves + leaf 0 + the door's leaf
    L->max_nodes = leaves - 1 + 6;
    L->max_leafs = leaves + 2;
    L->nodes = calloc((size_t)L->max_nodes, sizeof(node_t));
    L->leafs = calloc((size_t)L->max_leafs, sizeof(leaf_t));
    if (!L->nodes || !L->leafs)
        goto done;
    L->leafs[0].kind = K_SOLID;
    L->num_leafs = 1;
    if (box_uniform(&kd, &all) >= 0 || emit_tree(L, &kd, &all) != 0)
        goto done;   // the layout always has rooms: a root node must exist
    L->num_world_nodes = L->num_nodes;
    L->num_world_leafs = L->num_leafs;
    rc = 0;
done:
    free(kd.prefix);
    free(kd.memo);
    return rc;
}

// ---- faces ---------------------------------------------------------------------------

// Wall faces that carry the animated light panel instead of the room's texture:
// (column, layout row, z of the cell's bottom, direction toward the wall: 0 -x, 1 +x, 2 -y, 3 +y).
static const int light_panels[][4] = {
    { 3, 1, 64, 3 },    // room A, north wall
    { 1, 3, 64, 0 },    // room A, west wall
    { 18, 3, 64, 1 },   // room B, east wall
    { 16, 5, 64, 2 },   // room B, south wall
    { 11, 6, 64, 0 },   // passage from room B to the courtyard
};

// Texture of the side `dir` (0 -x, 1 +x, 2 -y, 3 +y, 4 floor, 5 ceiling) of an open cell.
static int face_texture(int ix, int iy, int iz, int dir)
{
    for (size_t i = 0; i < sizeof light_panels / sizeof light_panels[0]; i++)
        if (light_panels[i][0] == ix && NY - 1 - light_panels[i][1] == iy && light_panels[i][2] == zbound[iz] &&
            light_panels[i][3] == dir)
            return T_LIGHT0;
    int is_floor = dir == 4, is_ceil = dir == 5;
    switch (layout_at(ix, iy)) {
    case 'a': return is_floor ? T_FLOOR_A : is_ceil ? T_CEIL_A : T_BRICK_A;
    case 'w': return zbound[iz] < 0 ? T_TILE_W : is_ceil ? T_CEIL_B : T_METAL_B;   // the pool's sides and floor
    case 'b': return is_floor ? T_FLOOR_B : is_ceil ? T_CEIL_B : T_METAL_B;
    case 's': return is_floor ? T_GROUND_S : T_WALL_S;
    default: return T_STONE_C;
    }
}

static face_t *new_face(lvl_t *L)
{
    if (L->num_faces >= L->max_faces)
        return NULL;
    face_t *f = &L->faces[L->num_faces++];
    memset(f, 0, sizeof *f);
    f->node = -1;
    f->leaf = -1;
    f->lightofs = -1;
    memset(f->styles, 255, sizeof f->styles);
    return f;
}

// The quad between cell (ix, iy, iz) and its neighbour in direction dir, looking into the cell.
static void cell_side(face_t *f, int ix, int iy, int iz, int dir)
{
    int c[3] = { ix, iy, iz }, axis = dir / 2, up = dir & 1;
    for (int k = 0; k < 3; k++) {
        f->mins[k] = bound(k, c[k]);
        f->maxs[k] = bound(k, c[k] + 1);
    }
    int pos = up ? f->maxs[axis] : f->mins[axis];
    f->mins[axis] = f->maxs[axis] = pos;
    f->axis = axis;
    f->side = up;   // the neighbour is toward +axis: the face looks toward -axis
}

static int make_world_faces(lvl_t *L)
{
    for (int iz = 0; iz < NZ; iz++)
        for (int iy = 0; iy < NY; iy++)
            for (int ix = 0; ix < NX; ix++) {
                int kind = L->grid[cell_index(ix, iy, iz)];
                if (kind != K_EMPTY && kind != K_WATER)
                    continue;
                for (int dir = 0; dir < 6; dir++) {
                    int n[3] = { ix, iy, iz }, axis = dir / 2;
                    n[axis] += (dir & 1) ? 1 : -1;
                    int nk = n[axis] < 0 || n[axis] >= grid_size[axis] ? K_SOLID : L->grid[cell_index(n[0], n[1], n[2])];
                    if (nk == kind || (kind == K_WATER && nk == K_EMPTY))
                        continue;   // the air side makes the water pair
                    face_t *f = new_face(L);
                    if (!f)
                        return -1;
                    cell_side(f, ix, iy, iz, dir);
                    f->cell = cell_index(ix, iy, iz);
                    if (nk == K_SKY) {
                        f->kind = F_SKY;
                        f->tex = T_SKY;
                    } else if (nk == K_WATER) {
                        // Quake draws liquid surfaces from both sides: one face looking up into
                        // the air, one looking down into the water (in the water's leaf).
                        f->kind = F_WATER;
                        f->tex = T_WATER;
                        face_t *g = new_face(L);
                        if (!g)
                            return -1;
                        *g = *f;
                        g->side = !f->side;
                        g->cell = cell_index(n[0], n[1], n[2]);
                    } else {
                        f->kind = F_WALL;
                        f->tex = face_texture(ix, iy, iz, dir);
                    }
                }
            }
    return 0;
}

// The node that holds a face: the first one, from the root, whose plane it lies in.
static int face_node(const lvl_t *L, const face_t *f)
{
    int n = 0;
    while (n >= 0) {
        const node_t *nd = &L->nodes[n];
        if (nd->axis == f->axis && nd->pos == f->mins[f->axis])
            return n;
        if (f->mins[nd->axis] >= nd->pos)
            n = nd->child[0];
        else if (f->maxs[nd->axis] <= nd->pos)
            n = nd->child[1];
        else
            return -1;   // straddles a split: cannot happen with cell-aligned splits
    }
    return -1;
}

// Order the world's faces by node (each node's faces must be contiguous).
static int sort_faces_by_node(lvl_t *L)
{
    int nw = L->num_world_faces, nn = L->num_world_nodes;
    int *count = calloc((size_t)nn + 1, sizeof(int));
    face_t *sorted = malloc(sizeof(face_t) * (size_t)(nw ? nw : 1));
    if (!count || !sorted) {
        free(count);
        free(sorted);
        return -1;
    }
    for (int i = 0; i < nw; i++)
        count[L->faces[i].node + 1]++;
    for (int i = 0; i < nn; i++)
        count[i + 1] += count[i];
    for (int i = 0; i < nn; i++) {
        L->nodes[i].firstface = count[i];
        L->nodes[i].numfaces = 0;
    }
    for (int i = 0; i < nw; i++) {   // stable: faces keep their generation order inside a node
        node_t *nd = &L->nodes[L->faces[i].node];
        sorted[nd->firstface + nd->numfaces++] = L->faces[i];
    }
    memcpy(L->faces, sorted, sizeof(face_t) * (size_t)nw);
    free(count);
    free(sorted);
    return 0;
}

// The door: six nodes, each splitting on one side of the box and holding its
// face; outside every plane is the door's empty leaf, inside all of them solid.
static int make_door(lvl_t *L)
{
    const int mins[3] = { (int)GEN_DOOR_MINS_X, (int)GEN_DOOR_MINS_Y, (int)GEN_DOOR_MINS_Z };
    const int maxs[3] = { (int)GEN_DOOR_MAXS_X, (int)GEN_DOOR_MAXS_Y, (int)GEN_DOOR_MAXS_Z };
    memcpy(L->door_mins, mins, sizeof mins);
    memcpy(L->door_maxs, maxs, sizeof maxs);
    if (L->num_leafs >= L->max_leafs || L->num_nodes + 6 > L->max_nodes)
        return -1;
    int leaf = L->num_leafs++;
    leaf_t *lf = &L->leafs[leaf];
    memset(lf, 0, sizeof *lf);
    lf->kind = K_EMPTY;
    memcpy(lf->mins, mins, sizeof mins);
    memcpy(lf->maxs, maxs, sizeof maxs);
    for (int i = 0; i < 6; i++) {
        int axis = i / 2, high = i & 1;
        int ni = L->num_nodes++;
        node_t *nd = &L->nodes[ni];
        nd->axis = axis;
        nd->pos = high ? maxs[axis] : mins[axis];
        memcpy(nd->mins, mins, sizeof mins);
        memcpy(nd->maxs, maxs, sizeof maxs);
        int next = i == 5 ? -1 : ni + 1;   // past the last plane: inside the box, solid leaf 0
        // front of a low side and back of a high side are toward the inside
        nd->child[0] = high ? -(leaf + 1) : next;
        nd->child[1] = high ? next : -(leaf + 1);
        nd->firstface = L->num_faces;
        nd->numfaces = 1;
        face_t *f = new_face(L);
        if (!f)
            return -1;
        memcpy(f->mins, mins, sizeof mins);
        memcpy(f->maxs, maxs, sizeof maxs);
        f->mins[axis] = f->maxs[axis] = nd->pos;
        f->axis = axis;
        f->side = !high;   // low sides look toward -axis
        f->kind = F_WALL;
        f->tex = T_DOOR;
        f->cell = -1;
        f->node = ni;
        f->leaf = leaf;
    }
    return 0;
}

// Vertex index of an integer point (shared between faces).
static int vertex_of(lvl_t *L, const int p[3])
{
    uint64_t key = (uint64_t)(uint16_t)(p[0] + 32768) << 32 | (uint64_t)(uint16_t)(p[1] + 32768) << 16 |
                   (uint64_t)(uint16_t)(p[2] + 32768);
    size_t s = hmap_slot(&L->vmap, key);
    if (L->vmap.vals[s] >= 0)
        return L->vmap.vals[s];
    L->vmap.keys[s] = key;
    L->vmap.vals[s] = L->num_verts;
    for (int k = 0; k < 3; k++)
        put_f32(&L->verts, (float)p[k]);
    return L->num_verts++;
}

// Surfedge for the directed edge a -> b: an existing edge (reversed if need be) or a new one.
static int32_t surfedge_of(lvl_t *L, int a, int b)
{
    size_t s = hmap_slot(&L->emap, (uint64_t)b << 32 | (uint64_t)a);
    if (L->emap.vals[s] >= 0)
        return -L->emap.vals[s];   // stored as b -> a: used backwards
    s = hmap_slot(&L->emap, (uint64_t)a << 32 | (uint64_t)b);
    if (L->emap.vals[s] >= 0)
        return L->emap.vals[s];
    L->emap.keys[s] = (uint64_t)a << 32 | (uint64_t)b;
    L->emap.vals[s] = L->num_edges;
    put_u16(&L->edges, (unsigned)a);
    put_u16(&L->edges, (unsigned)b);
    return L->num_edges++;
}

// Plane, texinfo, vertices and edges of every face. Winding: clockwise seen
// from the side the face looks to, as Quake's faces.
static int face_geometry(lvl_t *L)
{
    put_u16(&L->edges, 0);   // edge 0 is never used: surfedge -0 could not say "reversed"
    put_u16(&L->edges, 0);
    L->num_edges = 1;
    for (int i = 0; i < L->num_faces; i++) {
        face_t *f = &L->faces[i];
        f->plane = find_plane(L, f->axis, f->mins[f->axis]);
        f->texinfo = find_texinfo(L, f->tex, f->axis);
        if (f->plane < 0 || f->texinfo < 0)
            return -1;
        int ua = f->axis == 0 ? 1 : 0, va = f->axis == 2 ? 1 : 2;
        int corner[4][3];
        static const int uv[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
        for (int c = 0; c < 4; c++) {
            corner[c][f->axis] = f->mins[f->axis];
            corner[c][ua] = uv[c][0] ? f->maxs[ua] : f->mins[ua];
            corner[c][va] = uv[c][1] ? f->maxs[va] : f->mins[va];
        }
        // (c1 - c0) x (c2 - c1) along the face's axis; clockwise seen from the front means it
        // points away from the viewer, i.e. against the face's normal.
        long e1[3], e2[3];
        for (int k = 0; k < 3; k++) {
            e1[k] = corner[1][k] - corner[0][k];
            e2[k] = corner[2][k] - corner[1][k];
        }
        long cross[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
        long normal_sign = f->side ? -1 : 1;
        int order[4] = { 0, 1, 2, 3 };
        if (cross[f->axis] * normal_sign > 0) {
            order[1] = 3;
            order[3] = 1;
        }
        int v[4];
        for (int c = 0; c < 4; c++)
            v[c] = vertex_of(L, corner[order[c]]);
        if (L->num_verts > 65535)
            return -1;   // edges store 16-bit vertex numbers
        f->firstedge = L->num_surfedges;
        for (int c = 0; c < 4; c++) {
            put_i32(&L->surfedges, surfedge_of(L, v[c], v[(c + 1) % 4]));
            L->num_surfedges++;
        }
        if (L->num_edges > 65535)
            return -1;
    }
    return 0;
}

// ---- light -------------------------------------------------------------------------

// Nothing solid (or sky) between a and b? Steps of 4 units through the cell grid.
static int line_clear(const uint8_t *grid, const float a[3], const float b[3])
{
    float d[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    int steps = (int)(len / 4) + 1;
    for (int i = 1; i < steps; i++) {
        float t = (float)i / (float)steps, p[3] = { a[0] + d[0] * t, a[1] + d[1] * t, a[2] + d[2] * t };
        int k = kind_at(grid, p);
        if (k == K_SOLID || k == K_SKY)
            return 0;
    }
    return 1;
}

// Does a ray from p toward the sun reach the sky before anything solid?
static int sees_sun(const uint8_t *grid, const float p[3], const float dir[3])
{
    for (int i = 1; i < 200; i++) {
        float q[3] = { p[0] + dir[0] * 4.0f * (float)i, p[1] + dir[1] * 4.0f * (float)i, p[2] + dir[2] * 4.0f * (float)i };
        int k = kind_at(grid, q);
        if (k == K_SKY)
            return 1;
        if (k == K_SOLID)
            return 0;
    }
    return 0;
}

#define AMBIENT_LIGHT 20.0f      // no corner is pitch black
#define DOOR_MIN_LIGHT 48.0f     // the door has no cell: lit without shadows, never darker than this
#define SKY_FILL 0.3f            // courtyard light from the whole sky, as a fraction of the sun's

// Lightmaps of one face: style 0 (steady lights, sun, ambient) and, when the
// flickering light reaches it, style 1. Samples every 16 texels from texturemins.
static int light_face(lvl_t *L, face_t *f)
{
    int sa, ta;
    tex_axes(f->axis, &sa, &ta);
    // texture space bounds: s = +coord[sa], t = -coord[ta]; the loader measures extents the same way
    double smin = f->mins[sa], smax = f->maxs[sa], tmin = -f->maxs[ta], tmax = -f->mins[ta];
    int tm[2] = { (int)floor(smin / 16) * 16, (int)floor(tmin / 16) * 16 };
    int ext[2] = { (int)ceil(smax / 16) * 16 - tm[0], (int)ceil(tmax / 16) * 16 - tm[1] };
    if (ext[0] > 256 || ext[1] > 256)
        return -1;   // Quake's limit on a face's texture extents
    int sw = ext[0] / 16 + 1, th = ext[1] / 16 + 1, n = sw * th;
    float normal[3] = { 0, 0, 0 };
    normal[f->axis] = f->side ? -1.0f : 1.0f;
    static const float sun_raw[3] = { -0.4f, -0.35f, 0.85f };   // high in the south-west
    float sl = sqrtf(sun_raw[0] * sun_raw[0] + sun_raw[1] * sun_raw[1] + sun_raw[2] * sun_raw[2]);
    float sun[3] = { sun_raw[0] / sl, sun_raw[1] / sl, sun_raw[2] / sl };
    int courtyard = f->cell >= 0 && layout_at(f->cell % NX, f->cell / NX % NY) == 's';
    uint8_t map0[17 * 17] = { 0 }, map1[17 * 17] = { 0 };
    int any1 = 0;
    for (int j = 0; j < th; j++)
        for (int i = 0; i < sw; i++) {
            float p[3];
            p[f->axis] = (float)f->mins[f->axis];
            p[sa] = (float)(tm[0] + 16 * i);
            p[ta] = -(float)(tm[1] + 16 * j);
            // Trace from just off the surface, pulled inside the quad: samples on its
            // border would otherwise start in the neighbouring wall and see nothing.
            for (int k = 0; k < 3; k++) {
                if (k == f->axis)
                    continue;
                float lo = (float)f->mins[k] + 1, hi = (float)f->maxs[k] - 1;
                p[k] = p[k] < lo ? lo : p[k] > hi ? hi : p[k];
            }
            p[f->axis] += normal[f->axis];
            float sum0 = f->cell < 0 ? DOOR_MIN_LIGHT : AMBIENT_LIGHT, sum1 = 0;
            for (int l = 0; l < GEN_NUM_LIGHTS; l++) {
                const gen_light_t *gl = &gen_lights[l];
                float lp[3] = { gl->x, gl->y, gl->z };
                float d[3] = { lp[0] - p[0], lp[1] - p[1], lp[2] - p[2] };
                float dist = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                if (dist < 1)
                    dist = 1;
                float cosang = (d[0] * normal[0] + d[1] * normal[1] + d[2] * normal[2]) / dist;
                if (cosang <= 0 || dist >= gl->light)
                    continue;
                // Quake's light: linear falloff, half of it weighted by the angle of incidence
                float add = (gl->light - dist) * (0.5f + 0.5f * cosang);
                if (f->cell >= 0 && !line_clear(L->grid, p, lp))
                    continue;
                if (gl->style)
                    sum1 += add;
                else
                    sum0 += add;
            }
            float sc = sun[0] * normal[0] + sun[1] * normal[1] + sun[2] * normal[2];
            if (f->cell >= 0 && sc > 0 && sees_sun(L->grid, p, sun))
                sum0 += (float)GEN_SUN_LIGHT * (1 - SKY_FILL) * (0.5f + 0.5f * sc);
            if (courtyard)
                sum0 += (float)GEN_SUN_LIGHT * SKY_FILL;
            map0[j * sw + i] = (uint8_t)(sum0 >= 255 ? 255 : (int)(sum0 + 0.5f));
            map1[j * sw + i] = (uint8_t)(sum1 >= 255 ? 255 : (int)(sum1 + 0.5f));
            any1 |= map1[j * sw + i] != 0;
        }
    f->lightofs = (int)L->lighting.n;
    f->styles[0] = 0;
    put_bytes(&L->lighting, map0, (size_t)n);
    if (any1) {
        f->styles[1] = 1;
        put_bytes(&L->lighting, map1, (size_t)n);
    }
    return 0;
}

// ---- leaves: marksurfaces, ambient sounds ------------------------------------------------

#define AMBIENT_REACH 384.0f   // water and sky are heard up to this far

// Ambient level from the distance to the nearest water or sky surface: full
// within 64 units, fading out toward AMBIENT_REACH.
static uint8_t ambient_level(float d)
{
    float vol = d <= 64 ? 1 : 1 - (d - 64) / (AMBIENT_REACH - 64);
    return vol < 0.1f ? 0 : (uint8_t)(vol * 255);
}

// Distance from the nearest cell centre of a leaf to the nearest face of a kind
// that it can see. Quake's vis measured from the leaf's box to the surfaces of
// the leaves in its PVS; the PVS here sees everything, so a line of sight
// through the grid stands in for it: no wind in a room the sky cannot be seen from.
static float leaf_distance_to(const lvl_t *L, int li, int kind)
{
    float best = 1e9f;
    for (int c = 0; c < NCELLS; c++) {
        if (L->cell_leaf[c] != li || (L->grid[c] != K_EMPTY && L->grid[c] != K_WATER))
            continue;
        int ix = c % NX, iy = c / NX % NY, iz = c / (NX * NY);
        float centre[3] = { ((float)ix + 0.5f) * GEN_CELL, ((float)iy + 0.5f) * GEN_CELL,
                            0.5f * (float)(zbound[iz] + zbound[iz + 1]) };
        for (int i = 0; i < L->num_world_faces; i++) {
            const face_t *f = &L->faces[i];
            if (f->kind != kind)
                continue;
            float target[3], d2 = 0;
            for (int k = 0; k < 3; k++) {
                target[k] = 0.5f * (float)(f->mins[k] + f->maxs[k]);
                d2 += (target[k] - centre[k]) * (target[k] - centre[k]);
            }
            target[f->axis] += f->side ? -1.0f : 1.0f;   // just off the face, in the cell it looks into
            float d = sqrtf(d2);
            if (d < best && d < AMBIENT_REACH && line_clear(L->grid, centre, target))
                best = d;
        }
    }
    return best;
}

static int leaf_marks_and_ambience(lvl_t *L)
{
    for (int li = 1; li < L->num_leafs; li++) {
        leaf_t *lf = &L->leafs[li];
        lf->firstmark = L->num_marks;
        for (int i = 0; i < L->num_faces; i++)
            if (L->faces[i].leaf == li) {
                put_u16(&L->marks, (unsigned)i);
                L->num_marks++;
            }
        lf->nummarks = L->num_marks - lf->firstmark;
        if (li >= L->num_world_leafs)
            continue;   // the door's leaf: no sounds
        lf->ambient[0] = ambient_level(leaf_distance_to(L, li, F_WATER));   // ambience/water1.wav
        lf->ambient[1] = ambient_level(leaf_distance_to(L, li, F_SKY));     // ambience/wind2.wav
    }
    return L->num_marks > 65535 ? -1 : 0;
}

// ---- the file ---------------------------------------------------------------------------

static void put_entities(buf_t *b)
{
    char text[4096];
    int n = snprintf(text, sizeof text,
                     "{\n\"classname\" \"worldspawn\"\n\"message\" \"The demoplay built-in level\"\n}\n"
                     "{\n\"classname\" \"info_player_start\"\n\"origin\" \"%g %g %g\"\n\"angle\" \"0\"\n}\n",
                     (double)GEN_START_X, (double)GEN_START_Y, (double)GEN_START_Z);
    for (int l = 0; l < GEN_NUM_LIGHTS && n > 0 && (size_t)n < sizeof text; l++) {
        const gen_light_t *gl = &gen_lights[l];
        n += snprintf(text + n, sizeof text - (size_t)n, "{\n\"classname\" \"light\"\n\"origin\" \"%g %g %g\"\n\"light\" \"%g\"\n",
                      (double)gl->x, (double)gl->y, (double)gl->z, (double)gl->light);
        if ((size_t)n < sizeof text && gl->style)
            n += snprintf(text + n, sizeof text - (size_t)n, "\"style\" \"%d\"\n", gl->style);
        if ((size_t)n < sizeof text)
            n += snprintf(text + n, sizeof text - (size_t)n, "}\n");
    }
    // The door moves up ("angle" -1). Quake moves a door by its size (the model's
    // bounds, spread by 1 unit each way when loaded) minus "lip": lip 10 gives GEN_DOOR_RISE.
    if (n > 0 && (size_t)n < sizeof text)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "{\n\"classname\" \"func_door\"\n\"model\" \"*1\"\n\"angle\" \"-1\"\n\"lip\" \"%g\"\n}\n",
                      (double)(GEN_DOOR_MAXS_Z - GEN_DOOR_MINS_Z + 2 - GEN_DOOR_RISE));
    if (n <= 0 || (size_t)n >= sizeof text) {
        b->failed = 1;
        return;
    }
    put_bytes(b, text, (size_t)n + 1);   // with its NUL
}

static void put_node(buf_t *b, const node_t *nd)
{
    put_i32(b, nd->plane);
    put_i16(b, nd->child[0]);
    put_i16(b, nd->child[1]);
    for (int k = 0; k < 3; k++)
        put_i16(b, nd->mins[k]);
    for (int k = 0; k < 3; k++)
        put_i16(b, nd->maxs[k]);
    put_u16(b, (unsigned)nd->firstface);
    put_u16(b, (unsigned)nd->numfaces);
}

enum { L_ENTITIES, L_PLANES, L_TEXTURES, L_VERTEXES, L_VISIBILITY, L_NODES, L_TEXINFO, L_FACES, L_LIGHTING,
       L_CLIPNODES, L_LEAFS, L_MARKSURFACES, L_EDGES, L_SURFEDGES, L_MODELS, L_COUNT };

static int write_bsp(lvl_t *L, buf_t *out)
{
    buf_t lumps[L_COUNT];
    memset(lumps, 0, sizeof lumps);
    int rc = -1;

    put_entities(&lumps[L_ENTITIES]);

    for (int i = 0; i < L->num_planes; i++) {
        for (int k = 0; k < 3; k++)
            put_f32(&lumps[L_PLANES], k == L->planes[i].axis ? 1.0f : 0.0f);
        put_f32(&lumps[L_PLANES], (float)L->planes[i].pos);
        put_i32(&lumps[L_PLANES], L->planes[i].axis);   // type 0/1/2: axial
    }

    if (write_textures(&lumps[L_TEXTURES], L->palette) < 0)
        goto done;

    // Visibility: every leaf sees every leaf. One row, shared by all world
    // leaves; a row has a bit per world leaf but leaf 0 (Quake's visleafs), and
    // with no zero bytes the run-length coding leaves it as plain bytes.
    int visleafs = L->num_world_leafs - 1;
    for (int i = 0; i < (visleafs + 7) / 8; i++) {
        int bits = visleafs - i * 8;
        put_bytes(&lumps[L_VISIBILITY], &(uint8_t){ (uint8_t)(bits >= 8 ? 0xff : (1 << bits) - 1) }, 1);
    }

    for (int i = 0; i < L->num_nodes; i++)
        put_node(&lumps[L_NODES], &L->nodes[i]);

    for (int i = 0; i < L->num_texinfo; i++) {
        int sa, ta;
        tex_axes(L->texinfo[i].axis, &sa, &ta);
        for (int v = 0; v < 2; v++)
            for (int k = 0; k < 4; k++)
                put_f32(&lumps[L_TEXINFO], v == 0 ? (k == sa ? 1.0f : 0.0f) : (k == ta ? -1.0f : 0.0f));
        put_i32(&lumps[L_TEXINFO], L->texinfo[i].tex);
        int special = L->texinfo[i].tex == T_SKY || L->texinfo[i].tex == T_WATER;
        put_i32(&lumps[L_TEXINFO], special);   // Quake's TEX_SPECIAL: no lightmap
    }

    for (int i = 0; i < L->num_faces; i++) {
        const face_t *f = &L->faces[i];
        put_i16(&lumps[L_FACES], f->plane);
        put_i16(&lumps[L_FACES], f->side);
        put_i32(&lumps[L_FACES], f->firstedge);
        put_i16(&lumps[L_FACES], 4);
        put_i16(&lumps[L_FACES], f->texinfo);
        put_bytes(&lumps[L_FACES], f->styles, 4);
        put_i32(&lumps[L_FACES], f->lightofs);
    }

    put_bytes(&lumps[L_LIGHTING], L->lighting.d, L->lighting.n);

    // Hull 1 and 2 (player and monster collision): one clip node that is empty on
    // both sides. This renderer never collides; an engine that does finds a valid,
    // if permissive, hull rather than indices into nothing.
    put_i32(&lumps[L_CLIPNODES], 0);
    put_i16(&lumps[L_CLIPNODES], BSP_CONTENTS_EMPTY);
    put_i16(&lumps[L_CLIPNODES], BSP_CONTENTS_EMPTY);

    for (int i = 0; i < L->num_leafs; i++) {
        const leaf_t *lf = &L->leafs[i];
        buf_t *b = &lumps[L_LEAFS];
        put_i32(b, kind_contents[lf->kind]);
        put_i32(b, i > 0 && i < L->num_world_leafs ? 0 : -1);   // visofs
        for (int k = 0; k < 3; k++)
            put_i16(b, lf->mins[k]);
        for (int k = 0; k < 3; k++)
            put_i16(b, lf->maxs[k]);
        put_u16(b, (unsigned)lf->firstmark);
        put_u16(b, (unsigned)lf->nummarks);
        put_bytes(b, lf->ambient, 4);
    }

    put_bytes(&lumps[L_VERTEXES], L->verts.d, L->verts.n);
    put_bytes(&lumps[L_MARKSURFACES], L->marks.d, L->marks.n);
    put_bytes(&lumps[L_EDGES], L->edges.d, L->edges.n);
    put_bytes(&lumps[L_SURFEDGES], L->surfedges.d, L->surfedges.n);

    // Model 0, the world; model 1, the door.
    for (int m = 0; m < 2; m++) {
        buf_t *b = &lumps[L_MODELS];
        int world = m == 0;
        for (int k = 0; k < 3; k++)   // the world's bounds: gen.h's grid, not the solid slab under it
            put_f32(b, world ? (float)bound(k, k == 2 ? 1 : 0) : (float)L->door_mins[k]);
        for (int k = 0; k < 3; k++)
            put_f32(b, world ? (float)bound(k, grid_size[k]) : (float)L->door_maxs[k]);
        for (int k = 0; k < 3; k++)
            put_f32(b, 0);
        put_i32(b, world ? 0 : L->num_world_nodes);
        put_i32(b, 0);   // hull 1 and 2: the one clip node
        put_i32(b, 0);
        put_i32(b, 0);
        put_i32(b, world ? visleafs : 0);
        put_i32(b, world ? 0 : L->num_world_faces);
        put_i32(b, world ? L->num_world_faces : L->num_faces - L->num_world_faces);
    }

    // Header, then the lumps in order, each at a 4-byte boundary.
    put_i32(out, 29);
    size_t ofs = 4 + 8 * L_COUNT;
    for (int i = 0; i < L_COUNT; i++) {
        if (lumps[i].failed)
            goto done;
        put_i32(out, (int32_t)ofs);
        put_i32(out, (int32_t)lumps[i].n);
        ofs += (lumps[i].n + 3) & ~(size_t)3;
    }
    for (int i = 0; i < L_COUNT; i++) {
        static const uint8_t zero[4] = { 0 };
        put_bytes(out, lumps[i].d, lumps[i].n);
        put_bytes(out, zero, ((lumps[i].n + 3) & ~(size_t)3) - lumps[i].n);
    }
    rc = out->failed ? -1 : 0;
done:
    for (int i = 0; i < L_COUNT; i++)
        free(lumps[i].d);
    return rc;
}

int gen_level(const char *outdir, const uint8_t palette[768])
{
    lvl_t *L = calloc(1, sizeof *L);
    if (!L) {
        fprintf(stderr, "mkbuiltin: gen_level: out of memory\n");
        return -1;
    }
    buf_t out = { 0 };
    const char *what = "out of memory";
    int rc = -1;
    L->palette = palette;
    for (int iz = 0; iz < NZ; iz++)
        for (int iy = 0; iy < NY; iy++)
            for (int ix = 0; ix < NX; ix++)
                L->grid[cell_index(ix, iy, iz)] = (uint8_t)cell_kind(ix, iy, iz);
    // every open cell has at most 6 sides (+1 for a water pair); 6 more for the door
    L->max_faces = NCELLS * 7 + 6;
    L->faces = calloc((size_t)L->max_faces, sizeof(face_t));
    // Every vertex is a grid corner or one of the door's 8; every edge joins two
    // neighbouring corners (3 per corner at most) or is one of the door's 12.
    const size_t corners = (NX + 1) * (NY + 1) * (NZ + 1) + 8;
    if (!L->faces || hmap_init(&L->vmap, corners) < 0 || hmap_init(&L->emap, corners * 3 + 12) < 0)
        goto done;
    if (build_tree(L) < 0 || make_world_faces(L) < 0)
        goto done;
    what = "a face off the tree";
    L->num_world_faces = L->num_faces;
    for (int i = 0; i < L->num_world_faces; i++) {
        face_t *f = &L->faces[i];
        f->node = face_node(L, f);
        f->leaf = L->cell_leaf[f->cell];
        if (f->node < 0 || f->leaf <= 0)
            goto done;
    }
    what = "out of memory";
    if (sort_faces_by_node(L) < 0 || make_door(L) < 0)
        goto done;
    what = "more planes, texinfo, vertices or edges than BSP29 holds";
    if (face_geometry(L) < 0)
        goto done;
    what = "a face wider than 256 texels";
    for (int i = 0; i < L->num_faces; i++)
        if (L->faces[i].kind == F_WALL && light_face(L, &L->faces[i]) < 0)
            goto done;
    what = "more marksurfaces than BSP29 holds";
    if (leaf_marks_and_ambience(L) < 0)
        goto done;
    for (int i = 0; i < L->num_nodes; i++) {
        L->nodes[i].plane = find_plane(L, L->nodes[i].axis, L->nodes[i].pos);
        if (L->nodes[i].plane < 0)
            goto done;
    }
    what = "out of memory";
    if (L->verts.failed || L->edges.failed || L->surfedges.failed || L->lighting.failed || L->marks.failed ||
        write_bsp(L, &out) < 0)
        goto done;
    rc = gen_write(outdir, "maps/builtin.bsp", out.d, out.n);
    what = NULL;   // gen_write has said what went wrong
done:
    if (rc < 0 && what)
        fprintf(stderr, "mkbuiltin: maps/builtin.bsp: %s\n", what);
    free(out.d);
    free(L->verts.d);
    free(L->edges.d);
    free(L->surfedges.d);
    free(L->lighting.d);
    free(L->marks.d);
    hmap_free(&L->vmap);
    hmap_free(&L->emap);
    free(L->faces);
    free(L->nodes);
    free(L->leafs);
    free(L);
    return rc;
}
