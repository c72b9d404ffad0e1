// The report of upsweep-sort across ranks (sort_dist.hpp): the whole sort as the slowest rank saw
// it, then each rank. The exchange's GB/s counts the bytes (keys, and indices with --pairs) that
// left a rank for another rank, over the slowest rank's time from the plan to the end of the
// exchange; what a rank keeps is not counted. Host C++ only.
#include "sort_dist.hpp"

#include <upsweep/apps/report.hpp>

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>

namespace upsweep::apps {
namespace {

struct totals {
  double sort_ms = 0, exchange_ms = 0, setup_ms = 0, read_ms = 0, copy_out_ms = 0, total_ms = 0;
  double sent_gb = 0;
};

totals add_up(const dist_summary& s) {
  totals t;
  for (const rank_report& r : s.ranks) {
    t.sort_ms = std::max(t.sort_ms, r.wall_ms);
    t.exchange_ms = std::max(t.exchange_ms, r.exchange_ms);
    t.setup_ms = std::max(t.setup_ms, r.setup_ms);
    t.read_ms = std::max(t.read_ms, r.read_ms);
    t.copy_out_ms = std::max(t.copy_out_ms, r.copy_out_ms);
    t.sent_gb += static_cast<double>(r.bytes_sent) / 1e9;
  }
  t.setup_ms += s.setup_ms;
  t.read_ms = std::max(t.read_ms, s.read_ms);
  t.total_ms = t.read_ms + t.setup_ms + t.sort_ms + t.copy_out_ms + s.gather_ms + s.verify_ms + s.write_ms;
  return t;
}

double gb_per_s(double gb, double ms) { return ms > 0 ? gb / (ms * 1e-3) : 0.0; }

void print_json(std::FILE* to, const dist_summary& s, const dist_options& o, const totals& t) {
  const int end_bit = o.order.end_bit < 0 ? key_bits(s.type) : o.order.end_bit;
  fmt::print(to,
             "{{\"tool\": \"upsweep-sort\", \"algo\": \"upsweep\", \"across_ranks\": true, \"ranks\": {}, "
             "\"distributed\": {}, \"type\": \"{}\", \"items\": {}, \"empty\": false, \"source\": {}, \"pairs\": {}, "
             "\"descending\": {}, \"begin_bit\": {}, \"end_bit\": {}, \"read_ms\": {:.3f}, \"setup_ms\": {:.3f}, "
             "\"sort_ms\": {:.4f}, \"repeat\": {}, \"exchange_ms\": {:.4f}, \"exchange_sent_gb\": {:.6f}, "
             "\"exchange_gb_per_s\": {:.3f}, \"copy_out_ms\": {:.3f}, \"gather_ms\": {:.3f}, \"verify_ms\": {:.3f}, "
             "\"write_ms\": {:.3f}, \"total_ms\": {:.3f}, \"verified\": {}, \"per_rank\": [",
             s.ranks.size(), o.distributed ? "true" : "false", type_name(s.type), s.items, json_string(s.source),
             o.pairs ? "true" : "false", o.order.descending ? "true" : "false", o.order.begin_bit, end_bit, t.read_ms,
             t.setup_ms, t.sort_ms, o.repeat, t.exchange_ms, t.sent_gb, gb_per_s(t.sent_gb, t.exchange_ms),
             t.copy_out_ms, s.gather_ms, s.verify_ms, s.write_ms, t.total_ms,
             s.verify_detail.empty() ? "false" : "true");
  for (std::size_t i = 0; i < s.ranks.size(); ++i) {
    const rank_report& r = s.ranks[i];
    fmt::print(to,
               "{}{{\"rank\": {}, \"host\": {}, \"device\": {}, \"gpu\": {}, \"items_in\": {}, \"items_out\": {}, "
               "\"sort_ms\": {:.4f}, \"local_sort_ms\": {:.4f}, \"plan_ms\": {:.4f}, \"exchange_ms\": {:.4f}, "
               "\"merge_ms\": {:.4f}, \"bytes_sent\": {}, \"setup_ms\": {:.3f}, \"copy_out_ms\": {:.3f}, "
               "\"device_gib\": {:.4f}}}",
               i ? ", " : "", r.rank, json_string(r.host), r.device, json_string(r.device_name), r.items_in,
               r.items_out, r.wall_ms, r.local_sort_ms, r.plan_ms, r.exchange_ms, r.merge_ms, r.bytes_sent, r.setup_ms,
               r.copy_out_ms, r.device_gib);
  }
  fmt::print(to, "]}}\n");
}

void print_rank(std::FILE* to, const rank_report& r, bool distributed) {
  const double sent_gb = static_cast<double>(r.bytes_sent) / 1e9;
  fmt::print(to,
             "  rank {:<4} {:>12} in, {:>12} out, sort {:9.4f} ms (local sort {:.4f}, plan {:.4f}, exchange {:.4f}: "
             "{:.3f} GB sent, {:.2f} GB/s, merge {:.4f}), copy out {:.3f} ms, {:.3f} GiB on gpu {} ({}{}{})\n",
             r.rank, r.items_in, r.items_out, r.wall_ms, r.local_sort_ms, r.plan_ms, r.exchange_ms, sent_gb,
             gb_per_s(sent_gb, r.exchange_ms), r.merge_ms, r.copy_out_ms, r.device_gib, r.device, r.device_name,
             distributed ? " on " : "", distributed ? r.host : "");
}

}  // namespace

void print_dist_report(const dist_summary& s, const dist_options& o) {
  std::FILE* to = o.output == "-" ? stderr : stdout;  // stdout may carry the data
  const totals t = add_up(s);
  if (o.json) return print_json(to, s, o, t);
  const double keys_per_s = t.sort_ms > 0 ? static_cast<double>(s.items) / (t.sort_ms * 1e-3) : 0;
  fmt::print(to, "upsweep-sort: sorted {} {} {} ({}), {}, upsweep across {} (NCCL)\n", s.items, type_name(s.type),
             s.what, s.source, describe_order(o.order, s.type), s.ranks_text);
  fmt::print(to, "  read      {:10.3f} ms{}\n", t.read_ms, o.distributed ? "  (the slowest rank)" : "");
  fmt::print(to, "  setup     {:10.3f} ms  (NCCL communicators, device memory, the slices copied in)\n", t.setup_ms);
  fmt::print(to, "  sort      {:10.4f} ms  the slowest rank from the ranks' common start, {:.3f} Gkeys/s  (its fastest "
             "of {}, after an untimed first call)\n", t.sort_ms, keys_per_s / 1e9, o.repeat);
  if (t.sent_gb > 0)
    fmt::print(to,
               "  exchange  {:10.4f} ms  the slowest rank's, {:.3f} GB left the ranks for others ({}): {:.2f} GB/s\n",
               t.exchange_ms, t.sent_gb, o.pairs ? "keys and indices" : "keys", gb_per_s(t.sent_gb, t.exchange_ms));
  else
    fmt::print(to, "  exchange  {:10.4f} ms  nothing left a rank (one rank keeps its keys)\n", t.exchange_ms);
  for (const rank_report& r : s.ranks) print_rank(to, r, o.distributed);
  fmt::print(to, "  gather    {:10.3f} ms  the shares joined in rank order (copies back: the slowest rank {:.3f} ms)\n",
             s.gather_ms, t.copy_out_ms);
  if (!s.verify_detail.empty()) fmt::print(to, "  verify    {}\n", s.verify_detail);
  fmt::print(to, "  write     {:10.3f} ms{}\n", s.write_ms, o.output.empty() ? "  (no --output)" : "");
  fmt::print(to, "  total     {:10.3f} ms  read, set up, sort, copy back, gather, verify and write\n", t.total_ms);
}

}  // namespace upsweep::apps
