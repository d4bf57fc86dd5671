// Work a launcher enqueues on several streams, captured into one CUDA graph
// and run again node by node, in orders the graph allows: a grading test's
// way to check that a multi-stream launcher orders its work by dependencies
// (events, stream order), not by luck. Every order the graph allows is one
// the GPU may run; a result that holds in the ones tried here holds for a
// reason, not because the streams happened to run in a friendly order.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace course {

class CapturedWork {
public:
    enum class Kind { kernel, copy, memset };

    struct Node {
        Kind kind = Kind::kernel;
        // Copies and memsets: the bytes written (and, for copies, read), as
        // the range from the first to one past the last.
        const char* dst = nullptr;
        const char* src = nullptr;
        std::size_t bytes = 0;
        // Kernels: the kernel, its grid and block (null, and no grid or block,
        // for a kernel launched through the driver API: a library's).
        const void* function = nullptr;
        dim3 grid, block;
        std::vector<std::size_t> parents;  // the nodes it depends on directly (indices)
    };

    // Captures `enqueue`, which may enqueue work on any of `streams` (all
    // idle when it is called, as a launcher's streams are) and must make every
    // stream it uses wait for nothing outside them. Every stream joins the
    // capture before `enqueue` and is joined back after it, which changes no
    // order: idle streams start at once anyway. Nothing runs.
    static CapturedWork capture(const std::vector<cudaStream_t>& streams, const std::function<void()>& enqueue);

    CapturedWork(CapturedWork&& other) noexcept;
    CapturedWork& operator=(CapturedWork&&) = delete;
    CapturedWork(const CapturedWork&) = delete;
    CapturedWork& operator=(const CapturedWork&) = delete;
    ~CapturedWork();

    // In an order the graph allows (every node after its parents).
    const std::vector<Node>& nodes() const { return nodes_; }
    // True when `later` depends on `earlier`, directly or through others.
    bool depends_on(std::size_t later, std::size_t earlier) const;
    // The nodes `node` depends on, directly or not, in the order of nodes().
    std::vector<std::size_t> ancestors(std::size_t node) const;

    // Runs the nodes of `order` one after another on `stream`, each on its
    // own, and waits for them. The caller chooses which nodes, and the order.
    void run(const std::vector<std::size_t>& order, cudaStream_t stream) const;

    // The graph as a Mermaid flowchart ("flowchart TD"), a node per line and
    // an edge per dependency, each node labelled by `label(index)`.
    std::string mermaid(const std::function<std::string(std::size_t)>& label) const;

private:
    CapturedWork() = default;

    cudaGraph_t graph_ = nullptr;
    std::vector<cudaGraphNode_t> handles_;
    std::vector<Node> nodes_;
    std::vector<std::vector<bool>> reaches_;     // reaches_[later][earlier]
    mutable std::vector<cudaGraphExec_t> runs_;  // one single-node graph per node, made when first run
};

}  // namespace course
