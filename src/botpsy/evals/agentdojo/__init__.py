"""AgentDojo (v1.2) through botpsy: utility, utility under attack, attack success.

AgentDojo's environments, user tasks, injection tasks, attacks and checks run
unchanged; botpsy's agent and safety layer are the pipeline that decides which
of the model's calls run (``pipeline``). The suites' functions are declared to
botpsy as a deployer would (``traits``), confirmations are answered by a
simulated user (``users``), and ``agentdojo:obedient`` (``planner``) is a model
that obeys every injection, so a safety-on run measures the defence alone.

    botpsy eval agentdojo --model agentdojo:obedient --suite all --out runs/ad-on
    botpsy eval agentdojo --model smollm2 --suite banking --limit 2 --user careless

Needs ``agentdojo`` (installed by ``setup.sh``); nothing here imports it until a
run starts.
"""
