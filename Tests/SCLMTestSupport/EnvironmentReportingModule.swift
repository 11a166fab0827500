/// An external bridge module (a Python program) whose one command, `env.report`, answers with the
/// environment it was started with: what a test checks to see what sclm handed a module.
package enum EnvironmentReportingModule {
    /// The program's source, to write to a file and run with `python3`.
    package static let script = """
        import json, os, sys
        for line in sys.stdin:
            m = json.loads(line)
            data = {"commands": ["env.report"]} if m.get("Command") == "bridge.describe" else dict(os.environ)
            print(json.dumps({"GUID": m.get("GUID"), "Status": "Success", "ErrorCode": 200, "ErrorMessage": "",
                              "Data": data}), flush=True)
        """
}
