import Foundation
import SCLMCore

/// `sclm-bench json --lines N`: parses and re-encodes N bridge-sized messages with each candidate
/// (JSONSerialization, JSONDecoder into JSONValue, `JSONParser`/`JSONWriter`) and prints the seconds.
struct JSONBenchmark {
    let lines: Int
    let only: String?

    init(arguments: [String]) throws {
        only = value("--only", in: arguments)
        guard let lines = value("--lines", in: arguments).flatMap(Int.init) else {
            throw SCLMError(.usage, "json needs --lines N")
        }
        self.lines = lines
    }

    static let sample = Array(
        #"{"Command":"go","Data":{"slideName":"slide2.html","data":{"from":"index.html","step":3,"ratio":0.5}},"GUID":"GUID_17a3f0c2d4e5f60718293a4b5c6d7e8f9"}"#
            .utf8)

    func run() throws {
        let data = Data(Self.sample)
        let serialization = try measure("serialization") {
            let object = try JSONSerialization.jsonObject(with: data)
            _ = try JSONSerialization.data(withJSONObject: object)
        }
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        let codable = try measure("codable") {
            let value = try decoder.decode(JSONValue.self, from: data)
            _ = try encoder.encode(value)
        }
        let custom = try measure("parser") {
            let value = try JSONParser.parse(Self.sample)
            _ = JSONWriter.bytes(value)
        }
        print(
            #"{"lines": \#(lines), "serialization": \#(serialization), "codable": \#(codable), "parser": \#(custom)}"#)
    }

    private func measure(_ name: String, _ body: () throws -> Void) throws -> Double {
        if let only, only != name { return 0 }
        let start = ContinuousClock.now
        for _ in 0..<lines { try body() }
        return (ContinuousClock.now - start).inSeconds
    }
}
