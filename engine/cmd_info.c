// cmd_info.c -- `demoplay info [--json] FILE...`: what a demo is, decoded to its last byte
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "demo.h"
#include "json.h"
#include "log.h"
#include "../render/render.h"

#define INFO_MAX_PLAYERS 256

typedef struct {
    int count;
    char names[INFO_MAX_PLAYERS][WORLD_NAME_LEN];
    // cameras: each (slot, name) a player had, and whether a frame held their entity
    int num_slots;
    struct {
        int slot;
        char name[WORLD_NAME_LEN];
        int64_t frames;            // frames with the player's entity in them (followable)
        int64_t view_frames;       // frames with the player's own view in them (world_player_pov: a true POV)
    } slots[INFO_MAX_PLAYERS];
    int any_view;                  // some player had a view of their own (Quake II relay recordings)
    int recorder;                  // the recording player's slot (-1: a recording without one)
} seen_players_t;

static void note_players(seen_players_t *seen, const world_t *w)
{
    for (int i = 0; i < WORLD_MAX_PLAYERS; i++) {
        const char *n = w->players[i].name;
        if (!n[0])
            continue;
        int known = 0;
        for (int j = 0; j < seen->count && !known; j++)
            known = strcmp(seen->names[j], n) == 0;
        if (!known && seen->count < INFO_MAX_PLAYERS)
            snprintf(seen->names[seen->count++], WORLD_NAME_LEN, "%s", n);
        int k = 0;
        while (k < seen->num_slots && !(seen->slots[k].slot == i && !strcmp(seen->slots[k].name, n)))
            k++;
        if (k == seen->num_slots) {
            if (k == INFO_MAX_PLAYERS)
                continue;
            seen->num_slots++;
            seen->slots[k].slot = i;
            snprintf(seen->slots[k].name, WORLD_NAME_LEN, "%s", n);
            seen->slots[k].frames = 0;
            seen->slots[k].view_frames = 0;
        }
        int e = w->players[i].entity;
        seen->slots[k].frames += e > 0 && e < w->num_entities && world_entity_visible(w, e);
        if (world_player_pov(w, i)) {
            seen->slots[k].view_frames++;
            seen->any_view = 1;
        }
    }
    seen->recorder = w->view.origin_valid || w->view.entity > 0 ? w->playernum : -1;
}

// A temp entity type's name ("te<N>" for a number the game leaves unnamed) and an event's
// (its script's name, or "event<N>").
static const char *tempent_name(const demo_info_t *in, int i)
{
    static char buf[16];   // one name at a time, printed at once
    if (in->tempent_names && in->tempent_names[i])
        return in->tempent_names[i];
    snprintf(buf, sizeof buf, "te%d", i);
    return buf;
}

static const char *event_name(const demo_info_t *in, int i)
{
    static char buf[16];
    if (in->event_names[i][0])
        return in->event_names[i];
    snprintf(buf, sizeof buf, "event%d", i);
    return buf;
}

static int num_tempent_types(const demo_info_t *in)
{
    if (!in->tempent_names)
        return 0;
    return in->num_tempent_types < DEMO_INFO_TEMPENTS ? in->num_tempent_types : DEMO_INFO_TEMPENTS;
}

// Counts by kind, those at 0 left out: "LABEL name n, name n" and a newline, or in JSON
// the "name":n pairs of an object.
static void print_counts(int json, const char *label, const demo_info_t *in, const int64_t *counts, int n,
                         const char *(*name)(const demo_info_t *, int))
{
    int any = 0;
    for (int i = 0; i < n; i++) {
        if (!counts[i])
            continue;
        if (json) {
            printf("%s", any ? "," : "");
            json_string(stdout, name(in, i));
            printf(":%lld", (long long)counts[i]);
        } else {
            printf("%s %s %lld", any ? "," : label, name(in, i), (long long)counts[i]);
        }
        any = 1;
    }
    if (any && !json)
        printf("\n");
}

// Decoders that keep only the first warning count as one.
static long long warning_count(const demo_info_t *in)
{
    return in->warnings ? (long long)in->warnings : in->warning[0] != 0;
}

static void print_human(const demo_t *d, const demo_info_t *in, const seen_players_t *seen)
{
    printf("%s: %s demo, protocol %d\n", d->name, in->format, in->protocol);
    printf("  map        %s (%s)\n", in->map, in->level_name);
    if (in->game_dir[0])
        printf("  game dir   %s\n", in->game_dir);
    printf("  frames     %lld, %.3f .. %.3f s (%.1f s)\n", (long long)in->frames, in->start_time, in->end_time,
           in->end_time - in->start_time);
    printf("  precache   %d models, %d sounds; %d level%s; maxclients %d\n", in->models, in->sounds, in->levels,
           in->levels == 1 ? "" : "s", in->maxclients);
    if (seen->count) {
        printf("  players   ");
        for (int i = 0; i < seen->count; i++)
            printf(" %s%s", seen->names[i], i + 1 < seen->count ? "," : "");
        printf("\n");
    }
    print_counts(0, "  temp ents ", in, in->tempents, num_tempent_types(in), tempent_name);
    print_counts(0, "  events    ", in, in->events, DEMO_INFO_EVENTS, event_name);
    if (in->counts_unknown)
        printf("  unknown events: %lld\n", (long long)in->unknown_events);
    if (in->warning[0])
        printf("  warnings   %lld, the first at offset %lld: %s\n", warning_count(in), in->warning_offset, in->warning);
    if (d->failed)
        printf("  ERROR      %s\n", d->errmsg);
}

// The first level's see-through tables (GoldSrc's render modes: built from the level's palette
// once per level, cached): how long building them took, or -1 when the level has none or its
// map is not there. The level is loaded as playback loads it, into a renderer of its own.
static double level_tables_ms(const demo_t *d, const cli_t *cli)
{
    if (d->world->game != GAME_GOLDSRC || !d->world->map[0])
        return -1;
    vfs_t *fs = demo_mount(d, cli);
    renderer_t *r = fs ? r_create(64, 48) : NULL;
    char err[256];
    double ms = r && r_load_level(r, fs, d->world, err, sizeof err) == 0 ? r_level_tables_ms(r) : -1;
    r_destroy(r);
    vfs_free(fs);
    return ms;
}

static void print_json(const demo_t *d, const demo_info_t *in, const seen_players_t *seen, double tables_ms)
{
    printf("{\"file\":");
    json_string(stdout, d->name);
    printf(",\"format\":");
    json_string(stdout, in->format);
    printf(",\"protocol\":%d,\"map\":", in->protocol);
    json_string(stdout, in->map);
    printf(",\"level_name\":");
    json_string(stdout, in->level_name);
    printf(",\"game_dir\":");
    json_string(stdout, in->game_dir);
    printf(",\"maxclients\":%d,\"frames\":%lld,\"start_time\":", in->maxclients, (long long)in->frames);
    json_number(stdout, in->start_time);
    printf(",\"end_time\":");
    json_number(stdout, in->end_time);
    printf(",\"models\":%d,\"sounds\":%d,\"levels\":%d,\"bytes\":%zu,\"players\":[", in->models, in->sounds,
           in->levels, d->size);
    for (int i = 0; i < seen->count; i++) {
        if (i)
            putchar(',');
        json_string(stdout, seen->names[i]);
    }
    // cameras (docs/cameras.md): every demo has these; follow:NUMBER for each player seen,
    // with the frames their entity was in (0: never followable in this recording) and, when the
    // demo carries players' own views (relay), the frames with theirs (follow is then their POV)
    printf("],\"cameras\":[\"eyes\",\"free\",\"chase\",\"follow\",\"path\"],\"follow\":[");
    for (int i = 0; i < seen->num_slots; i++) {
        printf("%s{\"number\":%d,\"name\":", i ? "," : "", seen->slots[i].slot + 1);
        json_string(stdout, seen->slots[i].name);
        printf(",\"recorder\":%s,\"frames\":%lld", seen->slots[i].slot == seen->recorder ? "true" : "false",
               (long long)seen->slots[i].frames);
        if (seen->any_view)
            printf(",\"view_frames\":%lld", (long long)seen->slots[i].view_frames);
        putchar('}');
    }
    printf("],\"tempents\":{");
    print_counts(1, NULL, in, in->tempents, num_tempent_types(in), tempent_name);
    printf("},\"events\":{");
    print_counts(1, NULL, in, in->events, DEMO_INFO_EVENTS, event_name);
    printf("},\"errors\":[");
    if (d->failed)
        json_string(stdout, d->errmsg);
    printf("],\"level_tables_ms\":");
    if (tables_ms >= 0)
        json_number(stdout, tables_ms);
    else
        printf("null");
    printf(",\"warnings\":[");
    if (in->warning[0]) {
        char msg[320];
        snprintf(msg, sizeof msg, "offset %lld: %s", in->warning_offset, in->warning);
        json_string(stdout, msg);
    }
    printf("],\"warning_count\":%lld,\"unknown_events\":", warning_count(in));
    if (in->counts_unknown)
        printf("%lld", (long long)in->unknown_events);
    else
        printf("null");
    printf("}\n");
}

int cmd_info(const cli_t *cli)
{
    int status = EXIT_OK;
    static seen_players_t seen;
    for (int i = 0; i < cli->nfiles; i++) {
        demo_t d;
        double tables_ms = -1;
        memset(&seen, 0, sizeof(seen));
        if (demo_open(&d, cli, cli->files[i], NULL, 0) < 0 && !d.failed) {
            log_error("%s", d.errmsg);
            demo_close(&d);
            status = EXIT_USAGE;
            continue;
        }
        if (!d.failed) {
            uint32_t level_seq = 0;
            while (demo_read_frame(&d) > 0) {
                note_players(&seen, d.world);
                if (d.world->level_seq != level_seq) {   // a level began: a mod's demo played from id1?
                    if (!level_seq && cli->json)
                        tables_ms = level_tables_ms(&d, cli);
                    level_seq = d.world->level_seq;
                    demo_check_mod(&d, cli);
                }
            }
        }
        demo_info_t none = { .format = "unknown" };
        const demo_info_t *in = (d.dec && d.state) ? d.dec->info(d.state) : &none;
        if (cli->json)
            print_json(&d, in, &seen, tables_ms);
        else
            print_human(&d, in, &seen);
        if (d.failed) {
            if (!cli->json)
                log_error("%s", d.errmsg);
            if (status == EXIT_OK)
                status = EXIT_DEMO_ERRORS;
        }
        demo_close(&d);
    }
    return status;
}
