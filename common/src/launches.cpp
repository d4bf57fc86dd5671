#include "course/launches.h"

#include "course/buffers.h"
#include "course/check.h"
#include "graph_nodes.h"

#include <algorithm>
#include <string>

namespace course {

namespace {

// The graph's nodes in the order they were enqueued. Work captured from one
// stream forms a chain, so following the dependencies from the root gives
// that order; breadth-first also copes with the forks of a multi-stream
// launcher, listing each node once.
std::vector<cudaGraphNode_t> nodes_in_order(cudaGraph_t graph) {
    std::size_t count = 0;
    CUDA_CHECK(cudaGraphGetRootNodes(graph, nullptr, &count));
    std::vector<cudaGraphNode_t> order(count);
    if (count > 0) CUDA_CHECK(cudaGraphGetRootNodes(graph, order.data(), &count));
    for (std::size_t i = 0; i < order.size(); ++i)
        for (cudaGraphNode_t child : graph_nodes::children(order[i]))
            if (std::find(order.begin(), order.end(), child) == order.end()) order.push_back(child);
    return order;
}

// `enqueue(stream)` captured into a graph, which the caller destroys.
cudaGraph_t capture(const std::function<void(cudaStream_t)>& enqueue) {
    Stream stream;
    cudaGraph_t graph = nullptr;
    // Relaxed: the launcher may still call cudaGetDevice, occupancy queries and
    // the like while it is being captured.
    CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeRelaxed));
    try {
        enqueue(stream.get());
    } catch (...) {
        cudaStreamEndCapture(stream.get(), &graph);
        if (graph != nullptr) cudaGraphDestroy(graph);
        throw;
    }
    CUDA_CHECK(cudaStreamEndCapture(stream.get(), &graph));
    return graph;
}

}  // namespace

LaunchRecord record_launches(const std::function<void(cudaStream_t)>& enqueue) {
    cudaGraph_t graph = capture(enqueue);
    LaunchRecord record;
    try {
        for (cudaGraphNode_t node : nodes_in_order(graph)) {
            cudaGraphNodeType type;
            CUDA_CHECK(cudaGraphNodeGetType(node, &type));
            if (type != cudaGraphNodeTypeKernel) {
                ++record.other_operations;
                continue;
            }
            cudaKernelNodeParams params{};
            const cudaError_t got = cudaGraphKernelNodeGetParams(node, &params);
            if (got == cudaErrorInvalidDeviceFunction) {
                // A kernel launched through the driver API (a library's, such
                // as cuBLAS's): the runtime cannot describe it.
                (void)cudaGetLastError();
                record.kernels.push_back(KernelLaunch{});
                continue;
            }
            CUDA_CHECK(got);
            KernelLaunch launch;
            launch.function = params.func;
            launch.grid = params.gridDim;
            launch.block = params.blockDim;
            launch.dynamic_shared_bytes = params.sharedMemBytes;
            CUDA_CHECK(cudaFuncGetAttributes(&launch.attributes, params.func));
            record.kernels.push_back(launch);
        }
    } catch (...) {
        cudaGraphDestroy(graph);
        throw;
    }
    CUDA_CHECK(cudaGraphDestroy(graph));
    return record;
}

KernelLaunch run_captured_kernel_as(const std::function<void(cudaStream_t)>& enqueue, dim3 grid, dim3 block,
                                    cudaStream_t stream) {
    cudaGraph_t graph = capture(enqueue);
    try {
        std::vector<cudaKernelNodeParams> kernels;
        for (cudaGraphNode_t node : nodes_in_order(graph)) {
            cudaGraphNodeType type;
            CUDA_CHECK(cudaGraphNodeGetType(node, &type));
            if (type != cudaGraphNodeTypeKernel) continue;
            cudaKernelNodeParams params{};
            CUDA_CHECK(cudaGraphKernelNodeGetParams(node, &params));
            kernels.push_back(params);
        }
        if (kernels.size() != 1)
            throw Error("run_captured_kernel_as: the launcher launched " + std::to_string(kernels.size()) +
                        " kernels, not one");
        const cudaKernelNodeParams& params = kernels.front();
        KernelLaunch launch;
        launch.function = params.func;
        launch.grid = params.gridDim;
        launch.block = params.blockDim;
        launch.dynamic_shared_bytes = params.sharedMemBytes;
        CUDA_CHECK(cudaFuncGetAttributes(&launch.attributes, params.func));
        // The arguments live in the graph: launched before it is destroyed.
        CUDA_CHECK(cudaLaunchKernel(params.func, grid, block, params.kernelParams, params.sharedMemBytes, stream));
        CUDA_CHECK(cudaGraphDestroy(graph));
        return launch;
    } catch (...) {
        cudaGraphDestroy(graph);
        throw;
    }
}

}  // namespace course
