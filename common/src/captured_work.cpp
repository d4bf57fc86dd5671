#include "course/captured_work.h"

#include "course/buffers.h"
#include "course/check.h"
#include "graph_nodes.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

namespace course {

namespace {

// The first and one past the last byte a 3-D copy touches on one side.
std::pair<const char*, const char*> copy_range(const cudaPitchedPtr& pointer, const cudaPos& position,
                                               const cudaExtent& extent) {
    const std::size_t pitch = pointer.pitch != 0 ? pointer.pitch : extent.width;
    const std::size_t ysize = pointer.ysize != 0 ? pointer.ysize : extent.height;
    const char* base = static_cast<const char*>(pointer.ptr);
    const std::size_t first = position.x + pitch * (position.y + ysize * position.z);
    const std::size_t last = position.x + extent.width + pitch * (position.y + extent.height - 1) +
                             pitch * ysize * (position.z + extent.depth - 1);
    return {base + first, base + last};
}

}  // namespace

CapturedWork CapturedWork::capture(const std::vector<cudaStream_t>& streams, const std::function<void()>& enqueue) {
    if (streams.empty()) throw Error("CapturedWork::capture: no streams");
    Stream origin;
    Event fork;
    std::vector<std::unique_ptr<Event>> joins;
    for (std::size_t i = 0; i < streams.size(); ++i) joins.push_back(std::make_unique<Event>());
    cudaGraph_t graph = nullptr;
    // Relaxed: the launcher may call cudaGetDevice, cudaGetSymbolAddress and
    // the like while it is being captured.
    CUDA_CHECK(cudaStreamBeginCapture(origin.get(), cudaStreamCaptureModeRelaxed));
    try {
        CUDA_CHECK(cudaEventRecord(fork.get(), origin.get()));
        for (const cudaStream_t stream : streams) CUDA_CHECK(cudaStreamWaitEvent(stream, fork.get(), 0));
        enqueue();
        for (std::size_t i = 0; i < streams.size(); ++i) {
            CUDA_CHECK(cudaEventRecord(joins[i]->get(), streams[i]));
            CUDA_CHECK(cudaStreamWaitEvent(origin.get(), joins[i]->get(), 0));
        }
    } catch (...) {
        cudaStreamEndCapture(origin.get(), &graph);
        if (graph != nullptr) cudaGraphDestroy(graph);
        throw;
    }
    CUDA_CHECK(cudaStreamEndCapture(origin.get(), &graph));

    CapturedWork work;
    work.graph_ = graph;
    // Every node, parents first (Kahn's algorithm from the roots).
    std::size_t count = 0;
    CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
    std::vector<cudaGraphNode_t> all(count);
    if (count > 0) CUDA_CHECK(cudaGraphGetNodes(graph, all.data(), &count));
    std::map<cudaGraphNode_t, std::vector<cudaGraphNode_t>> parents_of;
    for (cudaGraphNode_t node : all) parents_of[node] = graph_nodes::parents(node);
    std::map<cudaGraphNode_t, std::size_t> graph_index;  // among all nodes, empty ones included
    std::vector<cudaGraphNode_t> order;
    std::vector<bool> placed(all.size(), false);
    while (order.size() < all.size()) {
        bool progress = false;
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (placed[i]) continue;
            const auto& parents = parents_of[all[i]];
            if (std::all_of(parents.begin(), parents.end(), [&](cudaGraphNode_t p) { return graph_index.count(p); })) {
                placed[i] = true;
                graph_index[all[i]] = order.size();
                order.push_back(all[i]);
                progress = true;
            }
        }
        if (!progress) throw Error("CapturedWork::capture: the captured graph has a cycle");
    }
    // Reachability over every node; then the nodes that do work (kernels,
    // copies, memsets) keep the dependencies that pass through empty nodes.
    std::vector<std::vector<bool>> reach(order.size(), std::vector<bool>(order.size(), false));
    for (std::size_t i = 0; i < order.size(); ++i)
        for (cudaGraphNode_t parent : parents_of[order[i]]) {
            const std::size_t p = graph_index[parent];
            reach[i][p] = true;
            for (std::size_t q = 0; q < order.size(); ++q)
                if (reach[p][q]) reach[i][q] = true;
        }
    std::vector<std::size_t> kept;  // graph index of each node of work
    for (std::size_t i = 0; i < order.size(); ++i) {
        cudaGraphNodeType type;
        CUDA_CHECK(cudaGraphNodeGetType(order[i], &type));
        Node node;
        if (type == cudaGraphNodeTypeKernel) {
            cudaKernelNodeParams params{};
            const cudaError_t got = cudaGraphKernelNodeGetParams(order[i], &params);
            node.kind = Kind::kernel;
            if (got == cudaErrorInvalidDeviceFunction) {
                // A kernel launched through the driver API (a library's, such
                // as cuBLAS's or NPP's): the runtime cannot describe it, so
                // its function is left null (and run() refuses it).
                (void)cudaGetLastError();
            } else {
                CUDA_CHECK(got);
                node.function = params.func;
                node.grid = params.gridDim;
                node.block = params.blockDim;
            }
        } else if (type == cudaGraphNodeTypeMemcpy) {
            cudaMemcpy3DParms params{};
            CUDA_CHECK(cudaGraphMemcpyNodeGetParams(order[i], &params));
            node.kind = Kind::copy;
            const auto to = copy_range(params.dstPtr, params.dstPos, params.extent);
            const auto from = copy_range(params.srcPtr, params.srcPos, params.extent);
            node.dst = to.first;
            node.src = from.first;
            node.bytes = static_cast<std::size_t>(to.second - to.first);
        } else if (type == cudaGraphNodeTypeMemset) {
            cudaMemsetParams params{};
            CUDA_CHECK(cudaGraphMemsetNodeGetParams(order[i], &params));
            node.kind = Kind::memset;
            node.dst = static_cast<const char*>(params.dst);
            node.bytes = params.pitch * (params.height - 1) + params.width * params.elementSize;
        } else if (type == cudaGraphNodeTypeEmpty || type == cudaGraphNodeTypeWaitEvent ||
                   type == cudaGraphNodeTypeEventRecord) {
            continue;  // no work of its own; its dependencies pass through (reach)
        } else {
            throw Error("CapturedWork::capture: the launcher enqueued a graph node of a kind this check does not "
                        "run (type " +
                        std::to_string(static_cast<int>(type)) + "); kernels, copies and memsets only");
        }
        kept.push_back(i);
        work.handles_.push_back(order[i]);
        work.nodes_.push_back(node);
    }
    const std::size_t n = kept.size();
    work.reaches_.assign(n, std::vector<bool>(n, false));
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b) work.reaches_[a][b] = reach[kept[a]][kept[b]];
    // Direct parents among the nodes of work: those it reaches with no other
    // node of work between them.
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b) {
            if (!work.reaches_[a][b]) continue;
            bool direct = true;
            for (std::size_t c = 0; c < n && direct; ++c)
                if (work.reaches_[a][c] && work.reaches_[c][b]) direct = false;
            if (direct) work.nodes_[a].parents.push_back(b);
        }
    work.runs_.assign(n, nullptr);
    return work;
}

CapturedWork::CapturedWork(CapturedWork&& other) noexcept
    : graph_(std::exchange(other.graph_, nullptr)), handles_(std::move(other.handles_)),
      nodes_(std::move(other.nodes_)), reaches_(std::move(other.reaches_)), runs_(std::move(other.runs_)) {}

CapturedWork::~CapturedWork() {
    for (cudaGraphExec_t run : runs_)
        if (run != nullptr) cudaGraphExecDestroy(run);
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
}

bool CapturedWork::depends_on(std::size_t later, std::size_t earlier) const { return reaches_.at(later).at(earlier); }

std::vector<std::size_t> CapturedWork::ancestors(std::size_t node) const {
    std::vector<std::size_t> result;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        if (reaches_.at(node)[i]) result.push_back(i);
    return result;
}

void CapturedWork::run(const std::vector<std::size_t>& order, cudaStream_t stream) const {
    for (const std::size_t i : order) {
        if (runs_.at(i) == nullptr) {
            // The node alone in a graph of its own, with its captured
            // parameters (a kernel's arguments are copied from the capture).
            cudaGraph_t single = nullptr;
            CUDA_CHECK(cudaGraphCreate(&single, 0));
            cudaGraphNode_t copy = nullptr;
            cudaError_t status = cudaSuccess;
            if (nodes_[i].kind == Kind::kernel) {
                if (nodes_[i].function == nullptr) {
                    cudaGraphDestroy(single);
                    throw Error("CapturedWork::run: node " + std::to_string(i) +
                                " is a kernel launched through the driver API (a library's), which cannot be run "
                                "alone");
                }
                cudaKernelNodeParams params{};
                CUDA_CHECK(cudaGraphKernelNodeGetParams(handles_[i], &params));
                status = cudaGraphAddKernelNode(&copy, single, nullptr, 0, &params);
            } else if (nodes_[i].kind == Kind::copy) {
                cudaMemcpy3DParms params{};
                CUDA_CHECK(cudaGraphMemcpyNodeGetParams(handles_[i], &params));
                status = cudaGraphAddMemcpyNode(&copy, single, nullptr, 0, &params);
            } else {
                cudaMemsetParams params{};
                CUDA_CHECK(cudaGraphMemsetNodeGetParams(handles_[i], &params));
                status = cudaGraphAddMemsetNode(&copy, single, nullptr, 0, &params);
            }
            if (status == cudaSuccess) status = cudaGraphInstantiate(&runs_[i], single, 0);
            cudaGraphDestroy(single);
            CUDA_CHECK(status);
        }
        CUDA_CHECK(cudaGraphLaunch(runs_[i], stream));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::string CapturedWork::mermaid(const std::function<std::string(std::size_t)>& label) const {
    std::string text = "flowchart TD\n";
    for (std::size_t i = 0; i < nodes_.size(); ++i) text += "  n" + std::to_string(i) + "[\"" + label(i) + "\"]\n";
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        for (const std::size_t parent : nodes_[i].parents)
            text += "  n" + std::to_string(parent) + " --> n" + std::to_string(i) + "\n";
    return text;
}

}  // namespace course
