// A trivial sla-admission policy outside C++'s registry, in C++: answers every request line with an empty
// acceptance, without parsing it. Our own. Used by bench/external_policy.sh to measure what the --policy-cmd path
// itself costs per decision (docs/performance.md, "Policies outside C++").
#include <cstdio>

int main() {
  for (int c = std::getchar(); c != EOF; c = std::getchar()) {
    if (c != '\n') continue;  // one answer at the end of each request line
    std::fputs("{\"accepted\": []}\n", stdout);
    std::fflush(stdout);
  }
  return 0;
}
