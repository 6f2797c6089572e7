// The stop object of every Gecode search: its time limit, its effort budget (search nodes; solver/result.hpp), or a
// stop request from the user (support/stop.hpp).
// Our own. Gecode polls it between nodes, so either ends the search within one propagation; the node count is the
// engine's own (deterministic with one thread).
#pragma once

#include "solver/result.hpp"
#include "support/stop.hpp"

#include <gecode/search.hh>

#include <algorithm>
#include <cstdint>
#include <memory>

namespace schedcheck::gecode_support {

class TimeOrStopRequest : public Gecode::Search::TimeStop {
public:
  // `effort`: the budget in effort units (0: none), `units_per_node` a node (solver/result.hpp).
  explicit TimeOrStopRequest(unsigned long milliseconds, std::uint64_t effort = 0,
                             std::uint64_t units_per_node = kGecodeUnitsPerNode)
      : Gecode::Search::TimeStop(std::max(1ul, milliseconds)), effort_(effort, units_per_node) {}
  bool stop(const Gecode::Search::Statistics& statistics, const Gecode::Search::Options& options) override {
    if (effort_.limited() && statistics.node > effort_.left()) {
      effort_.exhaust();
      return true;
    }
    return stop_requested() || Gecode::Search::TimeStop::stop(statistics, options);
  }
  // The budget stopped the search (else the time limit or a stop request did, if anything).
  bool effort_spent() const { return effort_.spent(); }
  const EffortMeter& effort() const { return effort_; }

private:
  EffortMeter effort_;
};

inline std::unique_ptr<TimeOrStopRequest> time_or_stop_request(unsigned long milliseconds, std::uint64_t effort = 0,
                                                                std::uint64_t units_per_node = kGecodeUnitsPerNode) {
  return std::make_unique<TimeOrStopRequest>(milliseconds, effort, units_per_node);
}

}  // namespace schedcheck::gecode_support
