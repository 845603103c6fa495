// cmd_info.c -- `demoplay info [--json] FILE...`: what a demo is, decoded to its last byte
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "demo.h"
#include "json.h"
#include "log.h"

#define INFO_MAX_PLAYERS 256

typedef struct {
    int count;
    char names[INFO_MAX_PLAYERS][WORLD_NAME_LEN];
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
    }
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
    int any = 0;
    for (int i = 0; in->tempent_names && i < in->num_tempent_types && i < DEMO_INFO_TEMPENTS; i++)
        if (in->tempents[i]) {
            printf("%s %s %lld", any ? "," : "  temp ents ", tempent_name(in, i), (long long)in->tempents[i]);
            any = 1;
        }
    if (any)
        printf("\n");
    any = 0;
    for (int i = 0; i < DEMO_INFO_EVENTS; i++)
        if (in->events[i]) {
            printf("%s %s %lld", any ? "," : "  events    ", event_name(in, i), (long long)in->events[i]);
            any = 1;
        }
    if (any)
        printf("\n");
    if (d->failed)
        printf("  ERROR      %s\n", d->errmsg);
}

static void print_json(const demo_t *d, const demo_info_t *in, const seen_players_t *seen)
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
    printf("],\"tempents\":{");
    int any = 0;
    for (int i = 0; in->tempent_names && i < in->num_tempent_types && i < DEMO_INFO_TEMPENTS; i++)
        if (in->tempents[i]) {
            printf("%s", any ? "," : "");
            json_string(stdout, tempent_name(in, i));
            printf(":%lld", (long long)in->tempents[i]);
            any = 1;
        }
    printf("},\"events\":{");
    any = 0;
    for (int i = 0; i < DEMO_INFO_EVENTS; i++)
        if (in->events[i]) {
            printf("%s", any ? "," : "");
            json_string(stdout, event_name(in, i));
            printf(":%lld", (long long)in->events[i]);
            any = 1;
        }
    printf("},\"errors\":[");
    if (d->failed)
        json_string(stdout, d->errmsg);
    printf("],\"warnings\":[");
    if (in->warning[0]) {
        char msg[320];
        snprintf(msg, sizeof msg, "offset %lld: %s", in->warning_offset, in->warning);
        json_string(stdout, msg);
    }
    printf("]}\n");
}

int cmd_info(const cli_t *cli)
{
    int status = EXIT_OK;
    static seen_players_t seen;
    for (int i = 0; i < cli->nfiles; i++) {
        demo_t d;
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
                    level_seq = d.world->level_seq;
                    demo_check_mod(&d, cli);
                }
            }
        }
        demo_info_t none = { .format = "unknown" };
        const demo_info_t *in = (d.dec && d.state) ? d.dec->info(d.state) : &none;
        if (cli->json)
            print_json(&d, in, &seen);
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
