// How much of the calling thread's stack is left: the stop test of the depth-first searches whose depth grows with the
// instance (one frame a placed task or job). Our own. A search that would go deeper than the stack allows stops as at
// its time limit and says so (stack_limit_reached); its status is then at best `feasible`, never a false proof.
// Linux (pthread_getattr_np); where the stack's bounds cannot be read the test never fires.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace schedcheck {

// Kept free below a search's deepest frame (at most a quarter of the thread's stack): for the calls a node makes.
inline constexpr std::size_t kStackReserveBytes = 256 * 1024;

// Whether less than the reserve is left of the calling thread's stack below the caller's frame. A true answer is
// remembered on the thread until the innermost StackWatch around the call ends.
bool stack_nearly_full();

// Around one solve: whether a stack test inside it fired (then the solve's "stopped" means the stack, not the clock).
// Nested watches pass what they saw on to the enclosing one.
class StackWatch {
public:
  StackWatch();
  ~StackWatch();
  StackWatch(const StackWatch&) = delete;
  StackWatch& operator=(const StackWatch&) = delete;
  bool hit() const;

private:
  bool outer_;
};
// The calling thread's stack size in bytes (0 when it cannot be read).
std::size_t thread_stack_bytes();
// What a result cut short by the test says: "stack limit of 8192 KiB reached" + then.
std::string stack_limit_reached(std::string_view then = {});

}  // namespace schedcheck
