// A message payload: one value of any movable type that names its kind of message (a `static constexpr
// std::string_view kind` member), owned here until it is destroyed, and read back only as that type. Our own.
// Limits: a trivially copyable value of up to kLocalBytes (a job index, a status report) lives inside the payload;
// any other value is one heap allocation.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace schedcheck {

// A type a message may carry: movable, and naming its kind once (`static constexpr std::string_view kind = "status";`).
// The kind is asked first: Payload itself has none, so whether it is movable (which would consider Payload's own
// converting constructor again, an error for clang) is never asked.
template <class T>
concept MessageType = std::is_object_v<T> && !std::is_const_v<T> && requires {
  { T::kind } -> std::convertible_to<std::string_view>;
} && std::is_move_constructible_v<T>;

class Payload {
public:
  static constexpr std::size_t kLocalBytes = 40;

private:
  template <class T>
  static constexpr bool local = std::is_trivially_copyable_v<T> && sizeof(T) <= kLocalBytes && alignof(T) <= 8;
  using Destroy = void (*)(void*);
  using Copy = void* (*)(const void*);
  template <class T>
  static constexpr Destroy destroyer() {
    if constexpr (local<T>)
      return nullptr;
    else
      return [](void* p) { delete static_cast<T*>(p); };
  }
  template <class T>
  static constexpr Copy copier() {
    if constexpr (std::is_copy_constructible_v<T>)
      return [](const void* p) -> void* { return new T(*static_cast<const T*>(p)); };
    else
      return nullptr;
  }

public:
  // What one payload type is: its kind and how to copy and destroy a heap value. One per type (its address names
  // the type).
  struct Type {
    std::string_view kind;
    void (*destroy)(void*);      // null: the value lives inside the payload and needs no destructor call
    void* (*copy)(const void*);  // a heap value's copy; null: the type cannot be copied
  };

  Payload() = default;
  template <MessageType T>
  Payload(T value) : type_(&type_of<T>) {  // NOLINT: a payload is made from any message value
    if constexpr (local<T>) new (local_) T(std::move(value));
    else heap_ = new T(std::move(value));
  }
  Payload(Payload&& other) noexcept { take(other); }
  Payload& operator=(Payload&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  // A copy of the value (a decision copied with its messages); std::logic_error for a type that cannot be copied.
  Payload(const Payload& other) { copy_from(other); }
  Payload& operator=(const Payload& other) {
    if (this != &other) {
      Payload copy(other);
      *this = std::move(copy);
    }
    return *this;
  }
  ~Payload() { reset(); }

  bool empty() const { return type_ == nullptr; }
  const Type* type() const { return type_; }
  std::string_view kind() const { return type_ ? type_->kind : std::string_view("none"); }

  // The value when it is a T, else null.
  template <MessageType T>
  const T* as() const {
    if (type_ != &type_of<T>) return nullptr;
    if constexpr (local<T>) return std::launder(reinterpret_cast<const T*>(local_));
    else return static_cast<const T*>(heap_);
  }
  // The value; throws std::logic_error naming both kinds when it is not a T.
  template <MessageType T>
  const T& get() const {
    if (const T* value = as<T>()) return *value;
    throw std::logic_error("a message of kind '" + std::string(kind()) + "' read as one of kind '" +
                           std::string(std::string_view(T::kind)) + "'");
  }

  template <MessageType T>
  static constexpr Type type_of{T::kind, destroyer<T>(), copier<T>()};

private:
  void copy_from(const Payload& other) {
    type_ = other.type_;
    if (!type_) return;
    if (!type_->destroy) {
      std::memcpy(local_, other.local_, kLocalBytes);
      return;
    }
    if (!type_->copy) {
      type_ = nullptr;
      throw std::logic_error("a message of kind '" + std::string(other.kind()) + "' copied: its type cannot be copied");
    }
    heap_ = type_->copy(other.heap_);
  }
  void take(Payload& other) {
    type_ = other.type_;
    if (type_ && !type_->destroy) std::memcpy(local_, other.local_, kLocalBytes);
    else heap_ = other.heap_;
    other.type_ = nullptr;
  }
  void reset() {
    if (type_ && type_->destroy) type_->destroy(heap_);
    type_ = nullptr;
  }

  const Type* type_ = nullptr;
  union {
    void* heap_;
    alignas(8) unsigned char local_[kLocalBytes];
  };
};

}  // namespace schedcheck
