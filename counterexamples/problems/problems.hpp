// The built-in problems: one registration file each in this folder (a ProblemSpec naming the problem's instance
// type, policies from reference/, exact methods from solver/, properties from properties/ and generator), and the
// one list that names them, make_builtin_registry() in counterexamples/builtin.cpp. Our own.
#pragma once

#include "properties/registry.hpp"

#include <memory>

namespace schedcheck::problems {

std::unique_ptr<Problem> sla_admission();         // sla_admission.cpp: paper 004 sec. 3.2
std::unique_ptr<Problem> sla_admission_timed();   // sla_admission_timed.cpp: our timed extension of 004
std::unique_ptr<Problem> offers();                // offers.cpp: paper 000 sec. III
std::unique_ptr<Problem> deadline_feasibility();  // deadline_feasibility.cpp: paper 000 sec. III-A
std::unique_ptr<Problem> offer_composition();     // offer_composition.cpp: paper 000 sec. IV-V
std::unique_ptr<Problem> dbc_cost_time();         // dbc_cost_time.cpp: paper 001
std::unique_ptr<Problem> queue_window();          // queue_window.cpp: one cluster's queue
std::unique_ptr<Problem> cluster_run();           // cluster_run.cpp: whole runs of a small trace
std::unique_ptr<Problem> slot_report();           // slot_report.cpp: paper 002 sec. 4 (free time slots)
std::unique_ptr<Problem> gateway_choice();        // gateway_choice.cpp: paper 002 sec. 4 (earliest start)
std::unique_ptr<Problem> auction_bid();           // auction_bid.cpp: paper 003 sec. 3.2, 4 (bids to a deadline)

}  // namespace schedcheck::problems
