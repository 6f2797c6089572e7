# A scheduler written in Python, to check with schedcheck (docs/python.md): SLA admission (paper 004) by
# decreasing incentive per processor, accepting each eligible bid that still fits. Our own example policy.
SLACK = 1e-9  # schedcheck's relative slack on times and money


def incentive(site, bid):  # B(J, R): c l / mu (processor time, the default) or c l / (mu p) (site.pricing "wall-clock")
    execution = bid["length"] / (site["mips"] * bid["procs"])
    return site["price"] * execution * (1 if site.get("pricing") == "wall-clock" else bid["procs"])


def eligible(site, bid):
    execution = bid["length"] / (site["mips"] * bid["procs"])
    response = bid.get("alpha", 0) + execution
    ok = response <= bid.get("expected_response", bid["deadline"]) * (1 + SLACK) + SLACK
    if site.get("budget_test", False):
        ok = ok and incentive(site, bid) <= bid["budget"] * (1 + SLACK) + SLACK
    return ok


def by_density(instance):
    """instance dict in (docs/formats.md, sla-site), decision dict out (docs/protocol.md)."""
    site = instance["site"]
    free = site.get("free", site["processors"] - sum(job["procs"] for job in instance.get("running", [])))
    def density(bid):  # incentive per processor
        return incentive(site, bid) / bid["procs"]
    accepted = []
    for bid in sorted(instance["bids"], key=density, reverse=True):
        if eligible(site, bid) and bid["procs"] <= free:
            accepted.append(bid["id"])
            free -= bid["procs"]
    return {"accepted": accepted}
