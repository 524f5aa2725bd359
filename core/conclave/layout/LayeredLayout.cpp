#include "conclave/layout/LayeredLayout.h"

#include "conclave/model/TeamGraph.h"

#include <algorithm>
#include <numeric>

namespace conclave {

namespace {

using Order = std::vector<std::vector<size_t>>; // per layer, the vertices top to bottom

// Removes cycles by reversing the edges a depth-first search finds going back.
std::vector<std::pair<size_t, size_t>> acyclic(const LayeredLayout::Graph& g)
{
    std::vector<std::vector<size_t>> out(g.nodeCount);
    for (const auto& [a, b] : g.edges) {
        if (a != b)
            out[a].push_back(b);
    }
    enum : char { White, Grey, Black };
    std::vector<char> colour(g.nodeCount, White);
    std::vector<std::pair<size_t, size_t>> result;
    for (size_t root = 0; root < g.nodeCount; ++root) {
        if (colour[root] != White)
            continue;
        std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
        colour[root] = Grey;
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            if (next == out[v].size()) {
                colour[v] = Black;
                stack.pop_back();
                continue;
            }
            const size_t w = out[v][next++];
            if (colour[w] == Grey) {
                result.emplace_back(w, v);
            } else {
                result.emplace_back(v, w);
                if (colour[w] == White) {
                    colour[w] = Grey;
                    stack.emplace_back(w, 0);
                }
            }
        }
    }
    return result;
}

// Crossings between two adjacent layers, counted with a Fenwick tree.
size_t crossingsBetween(const std::vector<size_t>& upper, const std::vector<size_t>& lower,
                        const std::vector<std::vector<size_t>>& down, const std::vector<size_t>& rank)
{
    std::vector<std::pair<size_t, size_t>> pairs;
    for (const size_t u : upper) {
        for (const size_t v : down[u])
            pairs.emplace_back(rank[u], rank[v]);
    }
    std::sort(pairs.begin(), pairs.end());
    std::vector<size_t> tree(lower.size() + 1, 0);
    size_t crossings = 0;
    size_t seen = 0;
    for (const auto& [a, b] : pairs) {
        size_t notAbove = 0; // earlier pairs ending at or above b
        for (size_t i = b + 1; i > 0; i -= i & (~i + 1))
            notAbove += tree[i];
        crossings += seen - notAbove;
        for (size_t i = b + 1; i < tree.size(); i += i & (~i + 1))
            ++tree[i];
        ++seen;
    }
    return crossings;
}

class Layering {
public:
    Layering(const LayeredLayout::Graph& g, const LayeredLayout::Options& options) : m_options(options)
    {
        m_real = g.nodeCount;
        const auto edges = acyclic(g);
        assignLayers(edges);
        splitLongEdges(edges);
    }

    LayeredLayout::Result run()
    {
        initialOrder();
        Order best = m_order;
        size_t bestCrossings = crossings();
        for (int sweep = 0; sweep < m_options.sweeps && bestCrossings > 0; ++sweep) {
            for (size_t l = 1; l < m_order.size(); ++l)
                reorder(l, m_up);
            for (size_t l = m_order.size() - 1; l-- > 0;)
                reorder(l, m_down);
            const size_t now = crossings();
            if (now < bestCrossings) {
                bestCrossings = now;
                best = m_order;
            }
        }
        m_order = best;
        updateRanks();
        LayeredLayout::Result result;
        result.crossings = bestCrossings;
        result.layers.assign(m_layer.begin(), m_layer.begin() + static_cast<std::ptrdiff_t>(m_real));
        result.positions = place();
        return result;
    }

private:
    void assignLayers(const std::vector<std::pair<size_t, size_t>>& edges)
    {
        std::vector<std::vector<size_t>> out(m_real);
        std::vector<size_t> indegree(m_real, 0);
        for (const auto& [a, b] : edges) {
            out[a].push_back(b);
            ++indegree[b];
        }
        m_layer.assign(m_real, 0);
        std::vector<size_t> ready;
        for (size_t v = 0; v < m_real; ++v) {
            if (indegree[v] == 0)
                ready.push_back(v);
        }
        while (!ready.empty()) {
            const size_t v = ready.back();
            ready.pop_back();
            for (const size_t w : out[v]) {
                m_layer[w] = std::max(m_layer[w], m_layer[v] + 1);
                if (--indegree[w] == 0)
                    ready.push_back(w);
            }
        }
    }

    void splitLongEdges(const std::vector<std::pair<size_t, size_t>>& edges)
    {
        m_down.assign(m_real, {});
        m_up.assign(m_real, {});
        const auto link = [&](size_t a, size_t b) {
            m_down[a].push_back(b);
            m_up[b].push_back(a);
        };
        for (const auto& [a, b] : edges) {
            size_t prev = a;
            for (size_t l = m_layer[a] + 1; l < m_layer[b]; ++l) {
                const size_t dummy = m_layer.size();
                m_layer.push_back(l);
                m_down.emplace_back();
                m_up.emplace_back();
                link(prev, dummy);
                prev = dummy;
            }
            link(prev, b);
        }
        const size_t layers = m_layer.empty() ? 0 : *std::max_element(m_layer.begin(), m_layer.end()) + 1;
        m_order.assign(layers, {});
    }

    // Depth-first from the first layer so that related vertices start close together.
    void initialOrder()
    {
        std::vector<bool> placed(m_layer.size(), false);
        const auto visit = [&](size_t root) {
            std::vector<size_t> stack{root};
            while (!stack.empty()) {
                const size_t v = stack.back();
                stack.pop_back();
                if (placed[v])
                    continue;
                placed[v] = true;
                m_order[m_layer[v]].push_back(v);
                for (auto it = m_down[v].rbegin(); it != m_down[v].rend(); ++it)
                    stack.push_back(*it);
            }
        };
        for (size_t v = 0; v < m_real; ++v) {
            if (m_up[v].empty())
                visit(v);
        }
        for (size_t v = 0; v < m_layer.size(); ++v)
            visit(v);
        updateRanks();
    }

    void updateRanks()
    {
        m_rank.assign(m_layer.size(), 0);
        for (const auto& layer : m_order) {
            for (size_t i = 0; i < layer.size(); ++i)
                m_rank[layer[i]] = i;
        }
    }

    void reorder(size_t l, const std::vector<std::vector<size_t>>& neighbours)
    {
        auto& layer = m_order[l];
        std::vector<double> key(layer.size());
        for (size_t i = 0; i < layer.size(); ++i) {
            const auto& n = neighbours[layer[i]];
            if (n.empty()) {
                key[i] = static_cast<double>(i); // no neighbours there: stay put
                continue;
            }
            double sum = 0;
            for (const size_t w : n)
                sum += static_cast<double>(m_rank[w]);
            key[i] = sum / static_cast<double>(n.size());
        }
        std::vector<size_t> idx(layer.size());
        std::iota(idx.begin(), idx.end(), 0);
        std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
        std::vector<size_t> sorted;
        sorted.reserve(layer.size());
        for (const size_t i : idx)
            sorted.push_back(layer[i]);
        layer = std::move(sorted);
        for (size_t i = 0; i < layer.size(); ++i)
            m_rank[layer[i]] = i;
    }

    size_t crossings() const
    {
        size_t total = 0;
        for (size_t l = 0; l + 1 < m_order.size(); ++l)
            total += crossingsBetween(m_order[l], m_order[l + 1], m_down, m_rank);
        return total;
    }

    // y: virtual nodes get a narrow slot, real ones a full row; then a few
    // passes pull each vertex towards its neighbours' mean without reordering.
    std::vector<Position> place()
    {
        const double row = m_options.rowSpacing;
        const double thin = row * 0.25;
        const auto gapAbove = [&](size_t v, size_t above) { return (v < m_real && above < m_real) ? row : thin; };
        std::vector<double> y(m_layer.size(), 0);
        for (const auto& layer : m_order) {
            double at = 0;
            for (size_t i = 0; i < layer.size(); ++i) {
                if (i > 0)
                    at += gapAbove(layer[i], layer[i - 1]);
                y[layer[i]] = at;
            }
            for (const size_t v : layer)
                y[v] -= at / 2;
        }
        for (int pass = 0; pass < 6; ++pass) {
            const bool forward = pass % 2 == 0;
            for (size_t k = 0; k < m_order.size(); ++k) {
                const size_t l = forward ? k : m_order.size() - 1 - k;
                const auto& neighbours = forward ? m_up : m_down;
                pullLayer(m_order[l], neighbours, y, gapAbove);
            }
        }
        std::vector<Position> positions(m_real);
        double top = 0;
        for (size_t v = 0; v < m_real; ++v)
            top = std::min(top, y[v]);
        for (size_t v = 0; v < m_real; ++v)
            positions[v] = Position{static_cast<double>(m_layer[v]) * m_options.layerSpacing, y[v] - top};
        return positions;
    }

    template <class Gap>
    static void pullLayer(const std::vector<size_t>& layer, const std::vector<std::vector<size_t>>& neighbours,
                          std::vector<double>& y, const Gap& gapAbove)
    {
        if (layer.empty())
            return;
        std::vector<double> want(layer.size());
        for (size_t i = 0; i < layer.size(); ++i) {
            const auto& n = neighbours[layer[i]];
            if (n.empty()) {
                want[i] = y[layer[i]];
                continue;
            }
            double sum = 0;
            for (const size_t w : n)
                sum += y[w];
            want[i] = sum / static_cast<double>(n.size());
        }
        // Push down to keep the gaps, then push up from the bottom, then average the two.
        std::vector<double> downPass(layer.size());
        std::vector<double> upPass(layer.size());
        for (size_t i = 0; i < layer.size(); ++i)
            downPass[i] = i == 0 ? want[i] : std::max(want[i], downPass[i - 1] + gapAbove(layer[i], layer[i - 1]));
        for (size_t i = layer.size(); i-- > 0;)
            upPass[i] =
                i + 1 == layer.size() ? want[i] : std::min(want[i], upPass[i + 1] - gapAbove(layer[i + 1], layer[i]));
        for (size_t i = 0; i < layer.size(); ++i)
            y[layer[i]] = (downPass[i] + upPass[i]) / 2;
        // Averaging two orders that each keep the gaps keeps them too.
    }

    const LayeredLayout::Options& m_options;
    size_t m_real = 0;
    std::vector<size_t> m_layer;
    std::vector<std::vector<size_t>> m_down;
    std::vector<std::vector<size_t>> m_up;
    Order m_order;
    std::vector<size_t> m_rank;
};

} // namespace

LayeredLayout::Result LayeredLayout::compute(const Graph& graph, const Options& options)
{
    if (graph.nodeCount == 0)
        return {};
    return Layering(graph, options).run();
}

LayeredLayout::Graph LayeredLayout::graphOf(const Team& team)
{
    Graph graph;
    graph.nodeCount = team.nodes.size();
    for (const auto& [from, to] : TeamGraph(team).edgeEnds())
        graph.edges.emplace_back(from, to);
    return graph;
}

} // namespace conclave
