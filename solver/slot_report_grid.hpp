// The exact free area of a `slot-report` instance by brute force on the processor x time grid: the elementary
// intervals between the instance's own times (now, the horizon, every hold's start and end), each processor marked
// busy or free there from the holds alone (no availability profile). Our own; limited to kMaxCells cells.
#pragma once

#include "model/slot_report.hpp"
#include "solver/result.hpp"

#include <optional>
#include <string>

namespace schedcheck::slots {

inline constexpr std::size_t kMaxCells = 20'000'000;

// The maximal report: with processor identity one slot per processor and maximal free run, else one slot per
// elementary interval with all its free processors; open-ended at an infinite horizon. `optimal` with the free
// area as objective; `unknown` past kMaxCells.
ExactResult<SlotReport> solve_grid(const Instance& instance, const SolveOptions& options);

// The first free processor-second before measure_end that `report` leaves out, as "t=a..b: processors 3 5 free and
// in no slot" (count model: "2 processors"); "" when the report covers all of them; nullopt past kMaxCells.
std::optional<std::string> first_unpublished(const Instance& instance, const SlotReport& report);

}  // namespace schedcheck::slots
