#include "api/step_profiler.h"

#include <chrono>
#include <optional>

#include "ir/op.h"
#include "runtime/cuda_driver.h"
#include "runtime/device.h"
#include "runtime/event_timer.h"
#include "runtime/kernel_activity.h"
#include "support/error.h"

namespace seam::api {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

int64_t bytes_of(const seam::Fusion& f, const std::vector<seam::Value>& values) {
  int64_t bytes = 0;
  for (seam::Value v : values) bytes += f.type(v).bytes();
  return bytes;
}

// What a step is, before anything is timed.
StepProfile describe(const seam::PlannedStep& step, bool cuda) {
  StepProfile p;
  p.scheduler = std::string(seam::step_kind_name(step.kind));
  p.segment = static_cast<int>(step.group);
  const seam::Fusion& kf = step.kernel_fusion.fusion;
  if (step.library) {
    p.name = std::string(seam::op_name(kf.nodes().back().op)) + (cuda ? " by cuBLASLt" : " on the host");
  } else {
    p.name = step.kernel.name;
    p.blocks = step.grid.blocks;
    p.block = step.grid.block;
    p.registers = step.registers;
  }
  p.input_bytes = bytes_of(kf, kf.inputs());
  for (const seam::FusionOutput& o : kf.outputs()) p.output_bytes += kf.type(o.value).bytes();
  return p;
}

RunProfile summarize(std::string timing, std::vector<StepProfile> steps,
                     const seam::SegmentedFusion& segmented) {
  RunProfile profile;
  profile.timing = std::move(timing);
  profile.segments = segmented.num_kernels();
  profile.steps = std::move(steps);
  for (const StepProfile& s : profile.steps) profile.kernel_time_ms += s.time_ms;
  const seam::Fusion& f = segmented.fusion;
  profile.input_bytes = bytes_of(f, f.inputs());
  for (const seam::FusionOutput& o : f.outputs()) profile.output_bytes += f.type(o.value).bytes();
  return profile;
}

// The host backend: each step's wall time.
class HostStepProfiler final : public StepProfiler {
 public:
  void start(CUstream) override { begin_ = Clock::now(); }
  void before_step(size_t, const seam::PlannedStep& step, CUstream) override {
    steps_.push_back(describe(step, false));
    step_begin_ = Clock::now();
  }
  void after_step(size_t, const seam::PlannedStep&, CUstream, bool launched) override {
    steps_.back().time_ms = ms_between(step_begin_, Clock::now());
    steps_.back().launched = launched;
  }
  RunProfile finish(const seam::SegmentedFusion& segmented, CUstream) override {
    const double host = ms_between(begin_, Clock::now());
    RunProfile profile = summarize("host", std::move(steps_), segmented);
    profile.host_time_ms = host;
    return profile;
  }

 private:
  Clock::time_point begin_, step_begin_;
  std::vector<StepProfile> steps_;
};

// The CUDA backend: events around every step and the run; with CUPTI, each step is waited for and its
// kernel records taken, so that the durations are the GPU's own and belong to the step.
class CudaStepProfiler final : public StepProfiler {
 public:
  CudaStepProfiler() {
    if (!seam::activity_available(&note_)) return;
    try {
      recording_.emplace();
    } catch (const seam::Error& e) {  // CUPTI loads but refuses to record (another client, permissions)
      note_ = e.what();
    }
  }
  void start(CUstream stream) override {
    begin_ = Clock::now();
    if (recording_) {
      wait(stream);
      recording_->take();  // what ran before this run is not its
    }
    run_start_.record(stream);
  }
  void before_step(size_t, const seam::PlannedStep& step, CUstream stream) override {
    steps_.push_back(describe(step, true));
    events_.emplace_back(std::make_unique<seam::Event>(), std::make_unique<seam::Event>());
    events_.back().first->record(stream);
  }
  void after_step(size_t, const seam::PlannedStep&, CUstream stream, bool launched) override {
    events_.back().second->record(stream);
    StepProfile& p = steps_.back();
    p.launched = launched;
    if (!recording_) return;
    wait(stream);
    const Clock::time_point taking = Clock::now();
    p.gpu_kernels = 0;
    for (const seam::ActivityRecord& r : recording_->take()) {
      if (r.kind != seam::ActivityRecord::Kind::Kernel) continue;
      ++p.gpu_kernels;
      p.time_ms += r.duration_us() * 1e-3;
    }
    waiting_ms_ += ms_between(taking, Clock::now());
    if (launched && p.gpu_kernels == 0 && note_.empty())
      note_ = "CUPTI recorded no kernel for step " + p.name +
              " (another CUPTI client, such as torch.profiler, may have taken its records)";
  }
  RunProfile finish(const seam::SegmentedFusion& segmented, CUstream stream) override {
    run_end_.record(stream);
    wait(stream);
    const double host = ms_between(begin_, Clock::now()) - waiting_ms_;
    if (recording_) recording_->finish();
    // Events time the whole run when CUPTI is missing or lost a step's records.
    const bool cupti = recording_.has_value() && note_.empty();
    for (size_t s = 0; s < steps_.size(); ++s) {
      steps_[s].event_time_ms = events_[s].second->elapsed_ms_since(*events_[s].first);
      if (!cupti) steps_[s].time_ms = steps_[s].event_time_ms;
    }
    RunProfile profile = summarize(cupti ? "cupti" : "events", std::move(steps_), segmented);
    profile.timing_note = note_;
    profile.host_time_ms = host;
    profile.event_time_ms = run_end_.elapsed_ms_since(run_start_);
    profile.peak_bandwidth_gbs =
        seam::Device::shared().properties().peak_memory_bandwidth_bytes_per_s() * 1e-9;
    return profile;
  }

 private:
  void wait(CUstream stream) {
    const Clock::time_point t = Clock::now();
    seam::check_cuda(seam::driver().stream_synchronize(stream), "cuStreamSynchronize", "profiling a run");
    waiting_ms_ += ms_between(t, Clock::now());
  }

  std::string note_;  // why the times are not CUPTI's; empty while they are
  std::optional<seam::ActivityRecording> recording_;
  seam::Event run_start_, run_end_;
  std::vector<std::pair<std::unique_ptr<seam::Event>, std::unique_ptr<seam::Event>>> events_;
  std::vector<StepProfile> steps_;
  Clock::time_point begin_;
  double waiting_ms_ = 0.0;
};

}  // namespace

std::unique_ptr<StepProfiler> StepProfiler::make(bool cuda) {
  if (cuda) return std::make_unique<CudaStepProfiler>();
  return std::make_unique<HostStepProfiler>();
}

}  // namespace seam::api
