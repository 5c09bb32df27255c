"""Helpers the PyTorch comparison scripts share (reductions_vs_torch.py, rope_vs_torch.py): the same-size
copy rate that both report next to their kernels, and tensors written as seam reads .npy files.
Standard library only at import; callers pass their `torch` module in."""
import statistics


def copy_rate(torch):
    """Bytes read + written per second of a 2 GiB device-to-device copy, as seam bench measures it."""
    n = 1 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    times = []
    for i in range(23):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        dst.copy_(src)
        b.record()
        b.synchronize()
        if i >= 3:
            times.append(a.elapsed_time(b))
    del src, dst
    return 2.0 * n / (statistics.median(times) * 1e-3)


def to_npy(torch, t):
    """`t` as a NumPy array for np.save: contiguous, on the host, bf16 as its '<u2' bits (seam's reading)."""
    t = t.detach().contiguous().cpu()
    if t.dtype == torch.bfloat16:
        return t.view(torch.uint16).numpy()
    return t.numpy()
