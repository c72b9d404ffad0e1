// The host key order, the CPU reference sort and the result checks (key_order.hpp).
#include <upsweep/apps/key_order.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <type_traits>

namespace upsweep::apps {
namespace {

template <class T>
using bits_of = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                std::conditional_t<sizeof(T) == 2, std::uint16_t,
                std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <class T>
bits_of<T> raw_bits(T key) {
  bits_of<T> u;
  std::memcpy(&u, &key, sizeof u);
  return u;
}

// Unsigned bits whose unsigned order is the key order.
template <class T>
std::uint64_t ordered_bits(T key) {
  using U = bits_of<T>;
  constexpr U sign = static_cast<U>(U{1} << (sizeof(T) * 8 - 1));
  U u = raw_bits(key);
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) u = static_cast<U>(u ^ sign);
  } else {
    if (u == sign) u = 0;  // -0.0 sorts as +0.0
    u = (u & sign) ? static_cast<U>(~u) : static_cast<U>(u | sign);
  }
  return u;
}

// The bits the sort compares, oriented so that ascending order of the result is the output order.
template <class T>
struct window {
  int begin = 0;
  std::uint64_t mask = 0;
  bool descending = false;
  explicit window(const sort_order& o) {
    const int end = o.end_bit < 0 ? static_cast<int>(sizeof(T) * 8) : o.end_bit;
    const int width = end - o.begin_bit;
    begin = o.begin_bit;
    mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    descending = o.descending;
  }
  std::uint64_t operator()(T key) const {
    const std::uint64_t bits = (begin >= 64 ? 0 : ordered_bits(key) >> begin) & mask;
    return descending ? mask ^ bits : bits;
  }
};

// splitmix64's finaliser: spreads each key's bits so the sums below see every bit.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <class T>
std::uint64_t index_at(const std::vector<T>& v, std::size_t i) {
  return static_cast<std::uint64_t>(v[i]);
}

}  // namespace

int key_bits(element_type type) { return static_cast<int>(type_size(type) * 8); }

std::vector<std::uint64_t> reference_order(const number_array& keys, const sort_order& order) {
  return std::visit(
      [&](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        const window<T> w(order);
        std::vector<std::uint64_t> bits(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) bits[i] = w(v[i]);
        std::vector<std::uint64_t> idx(v.size());
        std::iota(idx.begin(), idx.end(), std::uint64_t{0});
        std::stable_sort(idx.begin(), idx.end(), [&](std::uint64_t a, std::uint64_t b) { return bits[a] < bits[b]; });
        return idx;
      },
      keys);
}

number_array gather(const number_array& keys, const std::vector<std::uint64_t>& order) {
  number_array out = make_array(type_of(keys), order.size());
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        auto& o = std::get<V>(out);
        for (std::size_t i = 0; i < order.size(); ++i) o[i] = v[order[i]];
      },
      keys);
  return out;
}

std::string check_sorted(const number_array& out, const sort_order& order) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = typename std::decay_t<decltype(v)>::value_type;
        const window<T> w(order);
        for (std::size_t i = 1; i < v.size(); ++i)
          if (w(v[i]) < w(v[i - 1])) return "not sorted: output item " + std::to_string(i) + " belongs before item " + std::to_string(i - 1);
        return {};
      },
      out);
}

std::string check_permutation(const number_array& in, const number_array& out) {
  if (type_of(in) != type_of(out)) return "the output type differs from the input type";
  if (size_of(in) != size_of(out))
    return "the output has " + std::to_string(size_of(out)) + " items, the input " + std::to_string(size_of(in));
  const auto checksum = [](const number_array& a) {
    return std::visit(
        [](const auto& v) {
          std::uint64_t sum = 0, sum_of_squares = 0;
          for (const auto x : v) {
            const std::uint64_t h = mix(raw_bits(x));
            sum += h;
            sum_of_squares += h * h;
          }
          return std::pair{sum, sum_of_squares};
        },
        a);
  };
  if (checksum(in) != checksum(out)) return "the output is not a permutation of the input (checksums differ)";
  return {};
}

std::string check_pairs(const number_array& in, const number_array& out, const number_array& indices,
                        const sort_order& order) {
  if (type_of(in) != type_of(out)) return "the output type differs from the input type";
  const std::int64_t n = size_of(in);
  if (size_of(out) != n || size_of(indices) != n)
    return "the output has " + std::to_string(size_of(out)) + " keys and " + std::to_string(size_of(indices)) +
           " indices for " + std::to_string(n) + " input items";
  std::vector<std::uint64_t> idx(static_cast<std::size_t>(n));
  std::visit(
      [&](const auto& v) {
        for (std::size_t i = 0; i < v.size(); ++i) idx[i] = index_at(v, i);
      },
      indices);
  std::vector<bool> seen(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < idx.size(); ++i) {
    if (idx[i] >= static_cast<std::uint64_t>(n) || seen[idx[i]])
      return "the indices are not a permutation: output item " + std::to_string(i) + " has index " + std::to_string(idx[i]);
    seen[idx[i]] = true;
  }
  return std::visit(
      [&](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        using T = typename V::value_type;
        const auto& o = std::get<V>(out);
        const window<T> w(order);
        for (std::size_t i = 0; i < o.size(); ++i) {
          if (raw_bits(o[i]) != raw_bits(v[idx[i]]))
            return "output key " + std::to_string(i) + " is not input key " + std::to_string(idx[i]) + ", its index";
          if (i > 0 && w(o[i]) == w(o[i - 1]) && idx[i] < idx[i - 1])
            return "not stable: equal keys at output items " + std::to_string(i - 1) + " and " + std::to_string(i) +
                   " are out of input order";
        }
        return {};
      },
      in);
}

}  // namespace upsweep::apps
