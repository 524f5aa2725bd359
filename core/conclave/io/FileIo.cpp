#include "conclave/io/FileIo.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace conclave {

namespace {

std::string systemError(std::string_view what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

} // namespace

FileText readFileText(const std::filesystem::path& path, size_t maxBytes)
{
    FileText result;
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
        result.error = "no such file";
        return result;
    }
    if (std::filesystem::is_directory(status)) {
        result.error = "is a directory, not a file";
        return result;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        result.error = systemError("cannot open");
        return result;
    }
    std::string text;
    char buffer[65536];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<size_t>(in.gcount()));
        if (text.size() > maxBytes) {
            result.error = "the file is larger than the limit of " + std::to_string(maxBytes) + " bytes";
            return result;
        }
    }
    if (in.bad()) {
        result.error = systemError("cannot read");
        return result;
    }
    result.text = std::move(text);
    return result;
}

std::optional<std::string> writeFileAtomically(const std::filesystem::path& path, std::string_view content)
{
    // Renaming over a symbolic link would replace the link with a regular file:
    // write beside the file it points to and replace that instead.
    std::error_code ec;
    auto target = std::filesystem::canonical(path, ec);
    if (ec)
        target = path; // a new file, or a dangling link that the rename replaces
    const auto dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        return systemError("cannot create a temporary file in " + dir.string());

    // Keep the permissions of the file being replaced, or the usual 0644.
    struct stat st {};
    const mode_t mode = ::stat(target.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
    ::fchmod(fd, mode);

    const char* data = content.data();
    size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            auto error = systemError("cannot write " + tmpl);
            ::close(fd);
            ::unlink(tmpl.c_str());
            return error;
        }
        data += n;
        left -= static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        auto error = systemError("cannot flush " + tmpl);
        ::unlink(tmpl.c_str());
        return error;
    }
    if (::rename(tmpl.c_str(), target.c_str()) != 0) {
        auto error = systemError("cannot replace " + target.string());
        ::unlink(tmpl.c_str());
        return error;
    }
    return std::nullopt;
}

} // namespace conclave
