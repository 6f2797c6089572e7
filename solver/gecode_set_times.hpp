// The SetTimes branching with postponement (Le Pape et al., "Constraint-Based Scheduling", 2001) for Gecode start
// variables of a scheduling model whose objective and constraints are all regular. Our own implementation, used by
// the offers / deadline-feasibility Gecode models. Its postponement rule (fail when every unfixed task is postponed
// at an unchanged earliest start) is complete only when propagation keeps each domain minimum at the task's earliest
// feasible start given the fixed tasks; Gecode 6.2's cumulative does not always (4 tasks on 16 processors: with
// starts 0, 0, 1 fixed, a 3-wide 31 s task keeps min 0 although it cannot start before 2), so the queue-window
// model branches plainly instead.
#pragma once

#include <gecode/int.hh>

#include <ostream>

namespace schedcheck::gecode_support {

// SetTimes branching with postponement (Le Pape et al.): take the unfixed task with the smallest earliest start
// (ties: smallest latest start, then the order given) that is not postponed; left: start = est; right: postpone it
// until propagation raises its est. A node whose unfixed tasks are all postponed (ests unchanged) fails: every
// schedule below it can be left-shifted to one explored elsewhere (the objective and all constraints are regular).
class SetTimes : public Gecode::Brancher {
  Gecode::ViewArray<Gecode::Int::IntView> x;
  int* postponed;  // est at postponement, -1 when not postponed
  class Pick : public Gecode::Choice {
   public:
    int pos, val;
    Pick(const Gecode::Brancher& b, unsigned int alts, int p, int v) : Gecode::Choice(b, alts), pos(p), val(v) {}
    void archive(Gecode::Archive& e) const override {
      Gecode::Choice::archive(e);
      e << pos << val;
    }
  };
  SetTimes(Gecode::Home home, Gecode::ViewArray<Gecode::Int::IntView>& x0) : Gecode::Brancher(home), x(x0) {
    postponed = static_cast<Gecode::Space&>(home).alloc<int>(x.size());
    for (int i = 0; i < x.size(); ++i) postponed[i] = -1;
  }
  SetTimes(Gecode::Space& home, SetTimes& b) : Gecode::Brancher(home, b) {
    x.update(home, b.x);
    postponed = home.alloc<int>(x.size());
    for (int i = 0; i < x.size(); ++i) postponed[i] = b.postponed[i];
  }

 public:
  static void post(Gecode::Home home, const Gecode::IntVarArgs& vars) {
    Gecode::ViewArray<Gecode::Int::IntView> y(home, vars);
    (void)new (home) SetTimes(home, y);
  }
  Gecode::Brancher* copy(Gecode::Space& home) override { return new (home) SetTimes(home, *this); }
  bool status(const Gecode::Space&) const override {
    for (int i = 0; i < x.size(); ++i)
      if (!x[i].assigned()) return true;
    return false;
  }
  const Gecode::Choice* choice(Gecode::Space&) override {
    int best = -1;
    for (int i = 0; i < x.size(); ++i) {
      if (x[i].assigned() || (postponed[i] >= 0 && x[i].min() == postponed[i])) continue;
      if (best < 0 || x[i].min() < x[best].min() || (x[i].min() == x[best].min() && x[i].max() < x[best].max()))
        best = i;
    }
    if (best < 0) return new Pick(*this, 1, -1, 0);  // everything unfixed is postponed: fail
    return new Pick(*this, 2, best, x[best].min());
  }
  const Gecode::Choice* choice(const Gecode::Space&, Gecode::Archive& e) override {
    int pos, val;
    e >> pos >> val;
    return new Pick(*this, pos < 0 ? 1 : 2, pos, val);
  }
  Gecode::ExecStatus commit(Gecode::Space& home, const Gecode::Choice& c, unsigned int a) override {
    const auto& p = static_cast<const Pick&>(c);
    if (p.pos < 0) return Gecode::ES_FAILED;
    if (a == 0) return Gecode::me_failed(x[p.pos].eq(home, p.val)) ? Gecode::ES_FAILED : Gecode::ES_OK;
    for (int i = 0; i < x.size(); ++i)  // postponements whose est moved have lapsed
      if (postponed[i] >= 0 && x[i].min() != postponed[i]) postponed[i] = -1;
    postponed[p.pos] = p.val;
    return Gecode::ES_OK;
  }
  void print(const Gecode::Space&, const Gecode::Choice& c, unsigned int a, std::ostream& o) const override {
    const auto& p = static_cast<const Pick&>(c);
    o << "start[" << p.pos << (a == 0 ? "] = " : "] postponed at ") << p.val;
  }
};

}  // namespace schedcheck::gecode_support
