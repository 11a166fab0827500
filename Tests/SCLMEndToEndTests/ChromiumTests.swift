import SCLMTestSupport
import Testing

/// Every test that drives a real Chromium (`sclm play`, `sclm validate --render`), run one at a time so
/// browsers never compete with each other for the CPU; each starts one browser and keeps timeouts short.
@Suite(.serialized, .tags(.large, .chromium))
enum ChromiumTests {}
