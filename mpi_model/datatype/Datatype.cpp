#include "datatype/Datatype.hpp"

#include "datatype/LayoutWalk.hpp"

namespace progsim::dt {

std::optional<PrimitiveId> Datatype::single_primitive() const noexcept {
    if (!homogeneous_) return std::nullopt;
    return single_;
}

const char* Datatype::name() const noexcept {
    return is_predefined() ? primitive_info(predefined_).name : "";
}

Envelope Datatype::envelope() const noexcept {
    return Envelope{combiner_, static_cast<std::int64_t>(contents_.integers.size()),
                    static_cast<std::int64_t>(contents_.addresses.size()),
                    static_cast<std::int64_t>(contents_.datatypes.size())};
}

void Datatype::for_each_segment(
    const std::function<void(std::int64_t offset, std::int64_t length)>& fn) const {
    if (size_ == 0) return;
    detail::walk_bytes(*bytes_, detail::Addr{0}, 0, size_, [&](detail::Addr a, std::int64_t len) {
        fn(static_cast<std::int64_t>(a), len);
    });
}

}  // namespace progsim::dt
