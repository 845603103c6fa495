// test_world.c -- world state: frame bookkeeping, interpolation inputs, snapshots
#include "testutil.h"

#include <string.h>

#include "engine/world.h"

static void test_entity_lerp_and_visibility(void **state)
{
    (void)state;
    world_t *w = world_create();
    assert_non_null(w);
    entity_state_t s;
    entity_state_clear(&s);
    s.modelindex = 2;
    s.origin[0] = 10;
    world_begin_frame(w, 1.0);
    assert_int_equal(world_entity_update(w, 5, &s), 0);
    assert_true(world_entity_visible(w, 5));
    assert_false(w->entities[5].lerp_ok);   // just appeared: no lerp
    s.origin[0] = 20;
    s.frame = 3;
    world_begin_frame(w, 1.1);
    world_entity_update(w, 5, &s);
    assert_true(w->entities[5].lerp_ok);
    assert_float_equal(w->entities[5].prev.origin[0], 10.0, 0.0);
    assert_float_equal(w->entities[5].cur.origin[0], 20.0, 0.0);
    assert_int_equal(w->entities[5].anim_prev_frame, 0);
    assert_float_equal(w->entities[5].anim_start_time, 1.1, 1e-9);
    s.origin[0] = 500;   // teleport: more than 100 units
    world_begin_frame(w, 1.2);
    world_entity_update(w, 5, &s);
    assert_false(w->entities[5].lerp_ok);
    world_begin_frame(w, 1.3);   // not updated: invisible
    assert_false(world_entity_visible(w, 5));
    assert_int_equal(world_entity_update(w, WORLD_MAX_ENTITIES, &s), -1);
    assert_int_equal(world_entity_update(w, -1, &s), -1);
    world_free(w);
}

static void test_snapshot_roundtrip(void **state)
{
    (void)state;
    world_t *w = world_create();
    world_set_model(w, 1, "maps/e1m1.bsp");
    world_set_model(w, 2, "progs/player.mdl");
    world_set_sound(w, 1, "weapons/r_exp3.wav");
    world_set_general(w, 4, "Match 14:40");
    entity_state_t s;
    entity_state_clear(&s);
    s.modelindex = 2;
    world_begin_frame(w, 3.0);
    world_entity_update(w, 7, &s);
    world_t *snap = world_clone(w);
    assert_non_null(snap);
    assert_true(world_clone_bytes(w) < sizeof(world_t) + 8 * sizeof(world_entity_t) + 4096);

    // move on: a new level with more models and entities, then restore
    world_new_level(w);
    world_set_model(w, 3, "progs/ogre.mdl");
    world_set_general(w, 9, "Timeout");
    world_begin_frame(w, 9.0);
    world_entity_update(w, 300, &s);
    assert_int_equal(world_restore(w, snap), 0);
    assert_string_equal(w->models[2], "progs/player.mdl");
    assert_string_equal(w->models[3], "");   // beyond the snapshot's count reads empty
    assert_string_equal(w->general[4], "Match 14:40");
    assert_string_equal(w->general[9], "");
    assert_int_equal(world_set_general(w, WORLD_MAX_GENERAL, "x"), -1);
    assert_int_equal(w->num_entities, 8);
    assert_int_equal(w->entities[300].seq, 0);
    assert_true(world_entity_visible(w, 7));
    assert_float_equal(w->time, 3.0, 0);
    assert_int_equal(world_restore(snap, w), -1);  // a clone has no spare capacity
    world_free(snap);
    world_free(w);
}

static void test_text_events(void **state)
{
    (void)state;
    world_t *w = world_create();
    world_begin_frame(w, 0.5);
    world_event_t *ev = world_add_text_event(w, EV_CENTERPRINT, "The Doomed Dimension", 0);
    assert_non_null(ev);
    assert_string_equal(world_event_text(w, ev), "The Doomed Dimension");
    for (int i = 0; i < WORLD_MAX_EVENTS + 5; i++)
        world_add_event(w, EV_BONUSFLASH);
    assert_int_equal(w->num_events, WORLD_MAX_EVENTS);
    assert_int_equal(w->dropped_events, 6);
    world_begin_frame(w, 0.6);
    assert_int_equal(w->num_events, 0);
    world_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entity_lerp_and_visibility),
        cmocka_unit_test(test_snapshot_roundtrip),
        cmocka_unit_test(test_text_events),
    };
    return cmocka_run_group_tests_name("world", tests, NULL, NULL);
}
