import CNcursesw

/// Every frame is a new grid (a 200×60 one is about half a megabyte), dropped once painted. glibc serves
/// blocks that size with fresh mappings, or trims them off the heap when freed, so each frame faulted its
/// pages in again: more than half of a full redraw's time. Keeping freed memory in the process makes the
/// next frame reuse it. `CursesTerminal` does this when it starts; the key-to-frame bench does it too.
public enum FrameMemory {
    /// Blocks below this come from the heap: a 400×120 grid (about 2.3 MB) still does.
    static let mmapThreshold: Int32 = 4 << 20
    /// Freed memory at the heap's top is given back only beyond this.
    static let trimThreshold: Int32 = 16 << 20

    public static func keepFreedFrames() {
        accessdeck_keep_freed_memory(mmapThreshold, trimThreshold)
    }
}
