import ArgumentParser
import Foundation
import ImageWall
import WallCore

/// How progress is shown.
enum ProgressStyle: String, ExpressibleByArgument, CaseIterable {
    /// A bar when stderr is a terminal, nothing otherwise.
    case auto
    /// One JSON object a line on stderr, for CI logs.
    case json
    /// Nothing.
    case none
}

/// Draws progress on stderr: a bar redrawn in place, or JSON lines; at most ten times a second
/// except when the phase changes or a phase ends.
final class ProgressDisplay: Sendable {
    private struct State {
        var lastDraw = 0.0
        var lastPhase: String?
        var phaseStart = 0.0
        var drewBar = false
    }

    private let style: ProgressStyle
    private let start = ProgressDisplay.now()
    private let state = Locked(State())

    init(style: ProgressStyle) {
        self.style = style == .auto && isatty(2) == 0 ? .none : style
    }

    var isActive: Bool { style != .none }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    var elapsed: Double { ProgressDisplay.now() - start }

    func show(_ update: ProgressUpdate) {
        show(phase: update.phase.rawValue, done: update.done, total: update.total)
    }

    /// Shows `done` of `total` in the stage named `phase`.
    func show(phase: String, done: Int, total: Int) {
        guard style != .none else { return }
        let time = ProgressDisplay.now()
        let line: String? = state.withLock { state in
            let changed = state.lastPhase != phase
            if changed { state.phaseStart = time }
            guard changed || done == total || time - state.lastDraw >= 0.1 else { return nil }
            state.lastDraw = time
            state.lastPhase = phase
            let phaseTime = time - state.phaseStart
            let rate = phaseTime > 0 ? Double(done) / phaseTime : 0
            switch style {
            case .json:
                return String(
                    format: "{\"phase\":\"%@\",\"done\":%d,\"total\":%d,\"rate\":%.1f,\"elapsed\":%.2f}\n",
                    phase, done, total, rate, time - start)
            default:
                state.drewBar = true
                let width = 24
                let filled = total > 0 ? min(width, width * done / total) : 0
                let eta = rate > 0 && total > done ? Double(total - done) / rate : 0
                let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
                return String(
                    format: "\r\u{1B}[2K%@ %@ %d/%d  %.1f/s  ETA %d:%02d",
                    phase.padding(toLength: 6, withPad: " ", startingAt: 0),
                    bar, done, total, rate, Int(eta) / 60, Int(eta) % 60)
            }
        }
        if let line { Console.raw(line) }
    }

    /// Clears the bar before other output.
    func clear() {
        let drew = state.withLock { state -> Bool in
            defer { state.drewBar = false }
            return state.drewBar
        }
        if drew { Console.raw("\r\u{1B}[2K") }
    }
}
