import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The check every command makes before it writes a file (docs/exit-status.md, 64): no output
/// may be a file the command reads (the input, the spec, a partial report), nor another output.
public enum OutputPaths {
    /// Refuses `outputs` (each named by its role) that would destroy one of the files
    /// `protected` names, or each other. Paths are compared by the file they name: a link, a
    /// hard link, `./out.csv` and `out.csv` alike; a file read as `-` is the one standard input
    /// is, so `describe - -o data.json < data.json` is refused too.
    public static func check(
        _ outputs: [(role: OutputRole, path: String)], protecting protected: [(path: String, what: String)]
    ) throws(MaskCleanError) {
        let protectedPlaces = protected.map {
            (path: $0.path, what: $0.what, place: FilePlace(reading: $0.path))
        }
        var places: [(role: OutputRole, path: String, place: FilePlace)] = []
        for (role, path) in outputs {
            guard !path.isEmpty else { throw .usage("\(role) needs a file name (or - for standard output)") }
            let place = FilePlace(path)
            for (protected, what, protectedPlace) in protectedPlaces {
                let sameName = path == protected && path != "-"
                if sameName || place.isRegularFile && place == protectedPlace {
                    let named = path == "-" ? "- (standard output)" : path
                    throw .usage("\(role) \(named) is the \(what) file: writing it would destroy the \(what)")
                }
            }
            // Two outputs in one file or pipe would clobber or interleave each other; /dev/null
            // or a terminal takes any number (`--report /dev/null > /dev/null`), but `-` names
            // standard output for one.
            if let other = places.first(where: { $0.place == place }),
                path == "-" && other.path == "-" || !place.isCharacterDevice
            {
                if path == other.path { throw .usage("\(role) and \(other.role) both name \(path)") }
                throw .usage("\(role) \(path) and \(other.role) \(other.path) are the same file")
            }
            places.append((role, path, place))
        }
    }

    /// The one rule for which outputs are on standard output: those named `-`, or by a path to
    /// the file standard output is (`/dev/stdout`, `/proc/self/fd/1`).
    public static func anyIsStandardOutput(_ paths: [String]) -> Bool {
        let standardOutput = FilePlace("-")
        return paths.contains { $0 == "-" || FilePlace($0) == standardOutput }
    }

    /// Whether `path` names a regular file that exists (through any links): one that an output
    /// would replace.
    public static func isExistingRegularFile(_ path: String) -> Bool {
        path != "-" && FilePlace(path).isRegularFile
    }
}

/// The file a path names, to tell two names for one file from two files.
struct FilePlace: Equatable {
    enum Identity: Equatable {
        case file(device: UInt64, inode: UInt64)
        /// A file that does not exist yet: its absolute path, links resolved.
        case path(String)
    }

    var identity: Identity
    var isRegularFile = false
    var isCharacterDevice = false

    /// A file written: `-` is standard output.
    init(_ path: String) {
        self.init(path, standardStream: STDOUT_FILENO)
    }

    /// A file read: `-` is standard input.
    init(reading path: String) {
        self.init(path, standardStream: STDIN_FILENO)
    }

    /// Refuses one file given twice among `paths` (files read: inputs, partial reports), by one
    /// name or by two (`a.csv ./a.csv`, a link): its records would be counted twice.
    static func refuseRepeats(among paths: [String]) throws(MaskCleanError) {
        var seen: [(path: String, place: FilePlace)] = []
        for path in paths where path != "-" {
            let place = FilePlace(reading: path)
            if let other = seen.first(where: { $0.place == place }) {
                throw .usage(
                    path == other.path
                        ? "\(path) is named twice: its records would be counted twice"
                        : "\(other.path) and \(path) are the same file: its records would be counted twice")
            }
            seen.append((path, place))
        }
    }

    private init(_ path: String, standardStream: Int32) {
        var info = stat()
        let found = path == "-" ? fstat(standardStream, &info) == 0 : stat(path, &info) == 0
        if found {
            identity = .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
            isCharacterDevice = (info.st_mode & S_IFMT) == S_IFCHR
            return
        }
        guard path != "-" else {
            identity = .path("-")
            return
        }
        let target = PathParts(OutputFile.resolvingLinks(path))
        let directory = target.directory
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let parent =
            realpath(directory.isEmpty ? "." : directory, &resolved) != nil
            ? String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : directory
        identity = .path(parent + "/" + target.name)
    }
}
