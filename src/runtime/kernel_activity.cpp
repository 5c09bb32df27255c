#include "runtime/kernel_activity.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "runtime/event_timer.h"
#include "runtime/runtime_env.h"
#include "support/error.h"

#if __has_include(<cupti_activity.h>)
#include <cupti_activity.h>
#define SEAM_HAVE_CUPTI_HEADERS 1
#else
#define SEAM_HAVE_CUPTI_HEADERS 0
#endif

namespace seam {

#if SEAM_HAVE_CUPTI_HEADERS
namespace {

struct Cupti {
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;
  std::string unavailable;  // empty when loaded
};

// What the buffer callbacks collect; CUPTI may call them from its own thread.
std::mutex records_mutex;
std::vector<ActivityRecord> collected;

const CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                     CUPTI_ACTIVITY_KIND_MEMSET};

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  constexpr size_t kBytes = size_t{8} << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBytes));
  *size = *buffer != nullptr ? kBytes : 0;
  *max_records = 0;  // as many as fit
}

const Cupti& cupti();

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::vector<ActivityRecord> found;
  CUpti_Activity* record = nullptr;
  while (cupti().next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      found.push_back({ActivityRecord::Kind::Kernel, k->start, k->end});
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* c = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      found.push_back({ActivityRecord::Kind::Copy, c->start, c->end});
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      found.push_back({ActivityRecord::Kind::Memset, m->start, m->end});
    }
  }
  std::free(buffer);
  std::lock_guard<std::mutex> lock(records_mutex);
  collected.insert(collected.end(), found.begin(), found.end());
}

Cupti load() {
  Cupti c;
  std::vector<std::string> names;
  if (std::optional<std::string> named = env_string("SEAM_CUPTI_LIBRARY")) names.push_back(*named);
  for (const char* dir :
       {"", "/usr/local/cuda/extras/CUPTI/lib64/", "/usr/local/cuda/lib64/", "/usr/local/cuda/lib/"})
    for (const char* file : {"libcupti.so", "libcupti.so.13"}) names.push_back(std::string(dir) + file);
  void* library = nullptr;
  for (const std::string& n : names)
    if ((library = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  if (library == nullptr) {
    c.unavailable = "CUPTI not found (tried " + names.front() + " and " + std::to_string(names.size() - 1) +
                    " other names; set SEAM_CUPTI_LIBRARY)";
    return c;
  }
  auto resolve = [&](auto& pointer, const char* name) {
    pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(dlsym(library, name));
    if (pointer == nullptr && c.unavailable.empty()) c.unavailable = std::string("CUPTI lacks ") + name;
  };
  resolve(c.enable, "cuptiActivityEnable");
  resolve(c.disable, "cuptiActivityDisable");
  resolve(c.register_callbacks, "cuptiActivityRegisterCallbacks");
  resolve(c.flush_all, "cuptiActivityFlushAll");
  resolve(c.next_record, "cuptiActivityGetNextRecord");
  resolve(c.result_string, "cuptiGetResultString");
  if (!c.unavailable.empty()) return c;
  if (CUptiResult r = c.register_callbacks(buffer_requested, buffer_completed); r != CUPTI_SUCCESS)
    c.unavailable = "cuptiActivityRegisterCallbacks failed with CUPTI error " + std::to_string(r);
  return c;
}

const Cupti& cupti() {
  static const Cupti loaded = load();
  return loaded;
}

void check_cupti(CUptiResult r, const char* what) {
  if (r == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cupti().result_string(r, &text);
  throw Error(std::string(what) + " failed: " + (text != nullptr ? text : std::to_string(r)));
}

}  // namespace

bool activity_available(std::string* why) {
  if (why != nullptr) *why = cupti().unavailable;
  return cupti().unavailable.empty();
}

ActivityRecording::ActivityRecording() {
  std::string why;
  SEAM_CHECK(activity_available(&why), why);
  {
    std::lock_guard<std::mutex> lock(records_mutex);
    collected.clear();
  }
  for (CUpti_ActivityKind k : kKinds) check_cupti(cupti().enable(k), "cuptiActivityEnable");
}

ActivityRecording::~ActivityRecording() {
  if (finished_) return;
  for (CUpti_ActivityKind k : kKinds) cupti().disable(k);
}

std::vector<ActivityRecord> ActivityRecording::take() {
  SEAM_CHECK(!finished_, "an activity recording is read before it finishes");
  check_cupti(cupti().flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  std::vector<ActivityRecord> records;
  {
    std::lock_guard<std::mutex> lock(records_mutex);
    records.swap(collected);
  }
  std::sort(records.begin(), records.end(),
            [](const ActivityRecord& a, const ActivityRecord& b) { return a.start_ns < b.start_ns; });
  return records;
}

std::vector<ActivityRecord> ActivityRecording::finish() {
  std::vector<ActivityRecord> records = take();
  for (CUpti_ActivityKind k : kKinds) check_cupti(cupti().disable(k), "cuptiActivityDisable");
  finished_ = true;
  return records;
}

#else  // no CUPTI headers at build time

bool activity_available(std::string* why) {
  if (why != nullptr) *why = "built without CUPTI's headers (cupti_activity.h)";
  return false;
}
ActivityRecording::ActivityRecording() { throw Error("built without CUPTI's headers (cupti_activity.h)"); }
ActivityRecording::~ActivityRecording() = default;
std::vector<ActivityRecord> ActivityRecording::finish() { return {}; }
std::vector<ActivityRecord> ActivityRecording::take() { return {}; }

#endif

double median_run_us(const std::vector<ActivityRecord>& records, ActivityRecord::Kind kind, int per_run,
                     int runs) {
  SEAM_CHECK(per_run > 0 && runs > 0, "median_run_us needs runs of at least one record");
  std::vector<double> durations;
  for (const ActivityRecord& r : records)
    if (r.kind == kind) durations.push_back(r.duration_us());
  const size_t needed = static_cast<size_t>(per_run) * static_cast<size_t>(runs);
  SEAM_CHECK(durations.size() >= needed, "CUPTI recorded ", durations.size(), " activities of the kind, ",
             "expected at least ", needed, " (", runs, " runs of ", per_run, ")");
  std::vector<double> sums;
  for (size_t first = durations.size() - needed; first < durations.size(); first += per_run) {
    double sum = 0;
    for (int k = 0; k < per_run; ++k) sum += durations[first + static_cast<size_t>(k)];
    sums.push_back(sum);
  }
  return median(std::move(sums));
}

}  // namespace seam
