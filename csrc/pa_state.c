/* pa_state.c -- the core's configuration and counters: pa_config (configure(), the
 * environment), pa_stats (frames, fallbacks by reason, compiled units) and pa_op_stats (per
 * opcode family).  Read through cffi by pyadapt.stats(); written by the hook, the loop and
 * the specializer.  This file calls nothing else of the core.
 */
#include "pa_internal.h"

pa_config_t pa_config = {1, 2, 52, 12, 2, 0, 1};
pa_opstats pa_op_stats[256];
pa_stats_t pa_stats;

void
pa_count_fallback(int reason)
{
    pa_stats.fallbacks[reason]++;
}
