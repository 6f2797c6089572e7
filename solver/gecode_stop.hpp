// The stop object of every Gecode search: its time limit, or a stop request from the user (support/stop.hpp).
// Our own. Gecode polls it between nodes, so a stop request ends the search within one propagation.
#pragma once

#include "support/stop.hpp"

#include <gecode/search.hh>

#include <algorithm>
#include <memory>

namespace schedcheck::gecode_support {

class TimeOrStopRequest : public Gecode::Search::TimeStop {
public:
  explicit TimeOrStopRequest(unsigned long milliseconds) : Gecode::Search::TimeStop(std::max(1ul, milliseconds)) {}
  bool stop(const Gecode::Search::Statistics& statistics, const Gecode::Search::Options& options) override {
    return stop_requested() || Gecode::Search::TimeStop::stop(statistics, options);
  }
};

inline std::unique_ptr<Gecode::Search::Stop> time_or_stop_request(unsigned long milliseconds) {
  return std::make_unique<TimeOrStopRequest>(milliseconds);
}

}  // namespace schedcheck::gecode_support
