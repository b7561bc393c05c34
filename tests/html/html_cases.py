"""The cases of the HTML report's tests (check_html.py, chromium_acceptance.py):
how each runs and the size bound its page must keep (issue 18: <= 10 MB for
64 ranks x 200 allreduces)."""
POLICIES = ["weak", "thread", "offload", "ideal"]
RUN_OPTIONS = {"deadlock": ["-n", "2", "--ranks-per-node", "2"], "overlap16": ["-n", "16", "--ranks-per-node", "4"],
               "scale64": ["-n", "64"], "zoom64": ["-n", "64"], "capped": ["-n", "64", "--timeline-max-events", "5000"]}
SIZE_LIMIT = {"deadlock": 1_000_000, "overlap16": 4_000_000, "scale64": 10_000_000, "zoom64": 10_000_000,
              "capped": 10_000_000}


def checker(failures):
    """check(condition, message): records and prints a failure, returns the condition."""
    def check(condition, message):
        if not condition:
            failures.append(message)
            print("FAIL: " + message)
        return condition
    return check
