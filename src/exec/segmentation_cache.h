// Segmentation once per fusion structure and size class (docs/CODEGEN.md, "Size classes"): a fusion
// that differs from an earlier one only in its extents reuses the earlier segmentation instead of
// searching again. The key is the fusion after the passes with every extent reduced to its class (0, 1
// or more), constants to their kind and whether they are 0, 1 or -1 (a mean's 1 / N differs per size),
// each reduction marked when it is small enough to inline into a pointwise kernel (the
// scheduler predicates' one size limit), and the options that steer the search. A hit is never
// trusted: the cached groups are re-checked for the new sizes (check_segmentation: every group accepted
// by its scheduler at these extents, the group order, boundaries recomputed), and groups the new sizes
// reject fall back to a fresh search. A class's sizes share the groups the segmenter chose for its
// first size: the kernel count does not change within a class, the boundary bytes it broke ties with
// scale with the sizes.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "segment/segment.h"

namespace seam {

class SegmentationCache {
 public:
  // The process's cache (compilations from several threads share it).
  static SegmentationCache& shared();

  // `fusion`'s segmentation: the cached groups of its structure and size class re-checked for its sizes
  // (`reused` true), else segment_fusion's (stored for the next size of the class).
  SegmentedFusion segment(const Fusion& fusion, const SegmentOptions& options, bool* reused = nullptr);

  void clear();
  size_t size() const;

 private:
  static constexpr size_t kCapacity = 512;  // structures kept, least recently used dropped first

  std::optional<SegmentedFusion> reuse(const std::string& key, const Fusion& fusion);

  mutable std::mutex mutex_;
  std::list<std::string> order_;  // most recently used first
  std::map<std::string, std::pair<SegmentedFusion, std::list<std::string>::iterator>> entries_;
};

// The key: `fusion` with extents and size-valued attributes (shapes, slice bounds, pad widths) reduced
// to their classes, and the search's options.
std::string segmentation_key(const Fusion& fusion, const SegmentOptions& options);

}  // namespace seam
