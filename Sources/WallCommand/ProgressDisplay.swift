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
        var lastPhase: Phase?
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
        guard style != .none else { return }
        let time = ProgressDisplay.now()
        let line: String? = state.withLock { state in
            let changed = state.lastPhase != update.phase
            if changed { state.phaseStart = time }
            guard changed || update.done == update.total || time - state.lastDraw >= 0.1 else { return nil }
            state.lastDraw = time
            state.lastPhase = update.phase
            let phaseTime = time - state.phaseStart
            let rate = phaseTime > 0 ? Double(update.done) / phaseTime : 0
            switch style {
            case .json:
                return String(
                    format: "{\"phase\":\"%@\",\"done\":%d,\"total\":%d,\"rate\":%.1f,\"elapsed\":%.2f}\n",
                    update.phase.rawValue, update.done, update.total, rate, time - start)
            default:
                state.drewBar = true
                let width = 24
                let filled = update.total > 0 ? min(width, width * update.done / update.total) : 0
                let eta = rate > 0 && update.total > update.done ? Double(update.total - update.done) / rate : 0
                let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
                return String(
                    format: "\r\u{1B}[2K%@ %@ %d/%d  %.1f/s  ETA %d:%02d",
                    update.phase.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0),
                    bar, update.done, update.total, rate, Int(eta) / 60, Int(eta) % 60)
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
