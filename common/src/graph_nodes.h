// The nodes a CUDA graph node depends on, and those that depend on it, for
// the two readers of captured graphs (launches.cpp, captured_work.cpp).
// CUDA 12.3 added edge data (the _v2 calls; CUDA 13 gave them the plain
// names), which must be asked for where an edge has some: a library that
// launches its kernels with programmatic dependent launch, as cuBLAS does,
// leaves such edges, and the query without them fails as lossy.
#pragma once

#include "course/check.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace course::graph_nodes {

inline cudaError_t query(bool parents, cudaGraphNode_t node, cudaGraphNode_t* nodes, std::size_t* count) {
#if CUDART_VERSION >= 12030
    std::vector<cudaGraphEdgeData> edges(nodes != nullptr ? *count : 0);
    cudaGraphEdgeData* data = nodes != nullptr ? edges.data() : nullptr;
#endif
#if CUDART_VERSION >= 13000
    return parents ? cudaGraphNodeGetDependencies(node, nodes, data, count)
                   : cudaGraphNodeGetDependentNodes(node, nodes, data, count);
#elif CUDART_VERSION >= 12030
    return parents ? cudaGraphNodeGetDependencies_v2(node, nodes, data, count)
                   : cudaGraphNodeGetDependentNodes_v2(node, nodes, data, count);
#else
    return parents ? cudaGraphNodeGetDependencies(node, nodes, count)
                   : cudaGraphNodeGetDependentNodes(node, nodes, count);
#endif
}

inline std::vector<cudaGraphNode_t> listed(bool parents, cudaGraphNode_t node) {
    std::size_t count = 0;
    CUDA_CHECK(query(parents, node, nullptr, &count));
    std::vector<cudaGraphNode_t> result(count);
    if (count > 0) CUDA_CHECK(query(parents, node, result.data(), &count));
    result.resize(count);
    return result;
}

// The nodes `node` depends on directly.
inline std::vector<cudaGraphNode_t> parents(cudaGraphNode_t node) { return listed(true, node); }

// The nodes that depend on `node` directly.
inline std::vector<cudaGraphNode_t> children(cudaGraphNode_t node) { return listed(false, node); }

}  // namespace course::graph_nodes
