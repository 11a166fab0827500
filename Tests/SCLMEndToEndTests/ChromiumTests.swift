import SCLMTestSupport
import Testing

/// Every test that drives a real Chromium (`sclm play`, `sclm validate --render`). Each nested suite runs
/// its tests one at a time, so at most one browser per suite competes for the CPU; each test starts one
/// browser and keeps its timeouts short.
@Suite(.tags(.large, .chromium))
enum ChromiumTests {}
