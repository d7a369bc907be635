// Spillway's public face, all of it: include this one header. The headers are grouped by the
// layer of core/src that implements them (docs/architecture.md); each may be included alone.
#pragma once

// model: the graph, its names, errors and limits; orders, cost models, plans and bounds as data.
#include "bounds.h"
#include "cost.h"
#include "error.h"
#include "free_list.h"
#include "graph.h"
#include "id_table.h"
#include "limits.h"
#include "name.h"
#include "plan.h"
#include "program.h"
#include "scale.h"
#include "schedule.h"

// timing: when each node of a plan runs.
#include "timing.h"

// verify: the independent verifier of a plan.
#include "verifier.h"

// bound: what no plan can beat.
#include "cycles_bound.h"
#include "residency.h"

// packing: minimalloc's problem, the exact packer and its validator, which shares no code with it.
#include "packing.h"
#include "packing_graph.h"
#include "packing_validator.h"

// plan and order: the policies and the order sources.
#include "order_search.h"
#include "order_sources.h"
#include "planner.h"

// cycles: the cycles objective.
#include "cycles.h"

// engine: one call from a graph document to a verified, timed, measured result.
#include "engine.h"
#include "run.h"

// io: JSON and CSV in and out.
#include "json_io.h"
#include "packing_io.h"
#include "program_text.h"

// generators: built-in examples, generated graphs and packing instances.
#include "examples.h"
#include "packing_instances.h"
