"""Title: Actor Critic Method (keras.io example, reinforcement learning)
Source: https://github.com/keras-team/keras-io/blob/0df30d775727a6789b7bdb4028561f2026cc4d52/examples/rl/actor_critic_cartpole.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: `import gym` / gym.make("CartPole-v0") / env.seed(seed) -> a small NumPy class
`_CartPole` with gym's CartPole-v0 dynamics (reset draws the state uniformly in +-0.05 from a
NumPy RandomState(seed), step returns (float32 state, 1.0, done, {}), 200 steps at most as
CartPole-v0's time limit) because gym is not installed and cannot be downloaded;
keras.utils.set_random_seed(0) at the top (the Keras initializers and the np.random.choice
action sampling are unseeded); `while True:` (run until solved, thousands of episodes) -> 8
episodes (`while episode_count < 8:`); the printout every 10 episodes -> every episode; the
per-episode rewards, running reward, losses, returns and the trained weights -> RESULTS.
"""
import numpy as np

RESULTS = {}
RESULTS["episode_reward"] = []
RESULTS["running_reward"] = []
RESULTS["loss"] = []
RESULTS["actor_loss"] = []
RESULTS["critic_loss"] = []


class _CartPole:
    """gym's CartPole-v0 (classic_control/cartpole.py) physics, Euler integration."""

    def __init__(self, seed):
        self.gravity, self.masscart, self.masspole = 9.8, 1.0, 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5
        self.polemass_length = self.masspole * self.length
        self.force_mag, self.tau = 10.0, 0.02
        self.theta_threshold_radians = 12 * 2 * np.pi / 360
        self.x_threshold = 2.4
        self.np_random = np.random.RandomState(seed)
        self.state, self.steps = None, 0

    def reset(self):
        self.state = self.np_random.uniform(low=-0.05, high=0.05, size=(4,))
        self.steps = 0
        return np.array(self.state, dtype=np.float32)

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = self.force_mag if action == 1 else -self.force_mag
        costheta, sintheta = np.cos(theta), np.sin(theta)
        temp = (force + self.polemass_length * theta_dot**2 * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta**2 / self.total_mass))
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass
        x = x + self.tau * x_dot
        x_dot = x_dot + self.tau * xacc
        theta = theta + self.tau * theta_dot
        theta_dot = theta_dot + self.tau * thetaacc
        self.state = (x, x_dot, theta, theta_dot)
        self.steps += 1
        done = bool(x < -self.x_threshold or x > self.x_threshold
                    or theta < -self.theta_threshold_radians
                    or theta > self.theta_threshold_radians or self.steps >= 200)
        return np.array(self.state, dtype=np.float32), 1.0, done, {}


import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
keras.utils.set_random_seed(0)

# Configuration parameters for the whole setup
seed = 42
gamma = 0.99  # Discount factor for past rewards
max_steps_per_episode = 10000
env = _CartPole(seed)  # Create the environment
eps = np.finfo(np.float32).eps.item()  # Smallest number such that 1.0 + eps != 1.0

num_inputs = 4
num_actions = 2
num_hidden = 128

inputs = layers.Input(shape=(num_inputs,))
common = layers.Dense(num_hidden, activation="relu")(inputs)
action = layers.Dense(num_actions, activation="softmax")(common)
critic = layers.Dense(1)(common)

model = keras.Model(inputs=inputs, outputs=[action, critic])

optimizer = keras.optimizers.Adam(learning_rate=0.01)
huber_loss = keras.losses.Huber()
action_probs_history = []
critic_value_history = []
rewards_history = []
running_reward = 0
episode_count = 0

while episode_count < 8:  # Run until solved
    state = env.reset()
    episode_reward = 0
    with tf.GradientTape() as tape:
        for timestep in range(1, max_steps_per_episode):
            # env.render(); Adding this line would show the attempts
            # of the agent in a pop up window.

            state = tf.convert_to_tensor(state)
            state = tf.expand_dims(state, 0)

            # Predict action probabilities and estimated future rewards
            # from environment state
            action_probs, critic_value = model(state)
            critic_value_history.append(critic_value[0, 0])

            # Sample action from action probability distribution
            action = np.random.choice(num_actions, p=np.squeeze(action_probs))
            action_probs_history.append(tf.math.log(action_probs[0, action]))

            # Apply the sampled action in our environment
            state, reward, done, _ = env.step(action)
            rewards_history.append(reward)
            episode_reward += reward

            if done:
                break

        # Update running reward to check condition for solving
        running_reward = 0.05 * episode_reward + (1 - 0.05) * running_reward

        # Calculate expected value from rewards
        # - At each timestep what was the total reward received after that timestep
        # - Rewards in the past are discounted by multiplying them with gamma
        # - These are the labels for our critic
        returns = []
        discounted_sum = 0
        for r in rewards_history[::-1]:
            discounted_sum = r + gamma * discounted_sum
            returns.insert(0, discounted_sum)

        # Normalize
        returns = np.array(returns)
        returns = (returns - np.mean(returns)) / (np.std(returns) + eps)
        returns = returns.tolist()
        if episode_count == 0:
            RESULTS["first_returns"] = np.array(returns)
            RESULTS["first_critic_values"] = tf.stack(critic_value_history)
            RESULTS["first_log_probs"] = tf.stack(action_probs_history)

        # Calculating loss values to update our network
        history = zip(action_probs_history, critic_value_history, returns)
        actor_losses = []
        critic_losses = []
        for log_prob, value, ret in history:
            # At this point in history, the critic estimated that we would get a
            # total reward = `value` in the future. We took an action with log probability
            # of `log_prob` and ended up recieving a total reward = `ret`.
            # The actor must be updated so that it predicts an action that leads to
            # high rewards (compared to critic's estimate) with high probability.
            diff = ret - value
            actor_losses.append(-log_prob * diff)  # actor loss

            # The critic must be updated so that it predicts a better estimate of
            # the future rewards.
            critic_losses.append(
                huber_loss(tf.expand_dims(value, 0), tf.expand_dims(ret, 0))
            )

        # Backpropagation
        loss_value = sum(actor_losses) + sum(critic_losses)
        grads = tape.gradient(loss_value, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        RESULTS["loss"].append(float(loss_value))
        RESULTS["actor_loss"].append(float(sum(actor_losses)))
        RESULTS["critic_loss"].append(float(sum(critic_losses)))
        if episode_count == 0:
            RESULTS["first_grads"] = [tf.reduce_sum(tf.abs(g)) for g in grads]

        # Clear the loss and reward history
        action_probs_history.clear()
        critic_value_history.clear()
        rewards_history.clear()

    # Log details
    episode_count += 1
    RESULTS["episode_reward"].append(episode_reward)
    RESULTS["running_reward"].append(running_reward)
    if episode_count % 1 == 0:
        template = "running reward: {:.2f} at episode {}"
        print(template.format(running_reward, episode_count))

    if running_reward > 195:  # Condition to consider the task solved
        print("Solved at episode {}!".format(episode_count))
        break

RESULTS["episode_count"] = episode_count
for _i, _w in enumerate(model.weights):
    RESULTS[f"final_weight_{_i}"] = _w
RESULTS["final_probs"] = model(tf.constant([[0.01, -0.02, 0.03, 0.04]]))[0]
