"""Title: Collaborative Filtering for Movie Recommendations (Keras example)
Source: https://github.com/keras-team/keras-io/blob/ff6a507b2737777a8845ff9a2f1caf7f53ce3e78/examples/structured_data/collaborative_filtering_movielens.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the MovieLens ml-latest-small download (100836 ratings.csv rows of 610 users and 9724
movies, and movies.csv, read with pandas) -> 3000 synthetic ratings (0.5-5.0 in steps of 0.5)
by 120 users of 300 movies with non-sequential ids, and a movies table of 400 ids with made-up
titles and genres, from a seeded NumPy generator, held as dicts of NumPy columns (pandas is not
a dependency): .unique().tolist() -> first-appearance-ordered unique, .map(dict) -> a list
comprehension, df.sample(frac=1, random_state=42) -> a seeded NumPy permutation of the rows,
df[["user", "movie"]].values -> np.stack, .apply(lambda) -> the same lambda over the array,
df.userId.sample(1) (unseeded) -> the first row's user of the permuted table, the boolean-mask
selections, .isin, .sort_values(...).head(5) and .itertuples() -> NumPy equivalents (a stable
descending sort); epochs 5 -> 3; keras.utils.set_random_seed(0) (initializers and fit's
shuffle are unseeded); verbose=0 on fit and predict; plotting removed; prints -> RESULTS
(history, ratings, recommendations), printing kept.
"""
import numpy as np
from zipfile import ZipFile
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

keras.utils.set_random_seed(0)
RESULTS = {}

_rng = np.random.default_rng(0)
_user_pool = np.sort(_rng.choice(np.arange(1, 2000), 120, replace=False))
_movie_pool = np.sort(_rng.choice(np.arange(1, 200000), 400, replace=False))
_rated = _movie_pool[_rng.choice(400, 300, replace=False)]
df = {
    "userId": _user_pool[_rng.integers(0, 120, 3000)],
    "movieId": _rated[np.minimum(_rng.geometric(0.02, 3000) - 1, 299)],
    "rating": _rng.integers(1, 11, 3000) / 2.0,
}
movie_df = {
    "movieId": _movie_pool,
    "title": np.array(["Movie %d (%d)" % (m, 1950 + m % 70) for m in _movie_pool]),
    "genres": np.array([["Drama", "Comedy", "Action|Thriller", "Animation|Children"][m % 4]
                        for m in _movie_pool]),
}


def _unique(values):  # pandas' .unique(): in order of first appearance
    _, first = np.unique(values, return_index=True)
    return values[np.sort(first)]


user_ids = _unique(df["userId"]).tolist()
user2user_encoded = {x: i for i, x in enumerate(user_ids)}
userencoded2user = {i: x for i, x in enumerate(user_ids)}
movie_ids = _unique(df["movieId"]).tolist()
movie2movie_encoded = {x: i for i, x in enumerate(movie_ids)}
movie_encoded2movie = {i: x for i, x in enumerate(movie_ids)}
df["user"] = np.array([user2user_encoded[x] for x in df["userId"]])
df["movie"] = np.array([movie2movie_encoded[x] for x in df["movieId"]])

num_users = len(user2user_encoded)
num_movies = len(movie_encoded2movie)
df["rating"] = df["rating"].astype(np.float32)
# min and max ratings will be used to normalize the ratings later
min_rating = min(df["rating"])
max_rating = max(df["rating"])

print(
    "Number of users: {}, Number of Movies: {}, Min rating: {}, Max rating: {}".format(
        num_users, num_movies, min_rating, max_rating
    )
)
RESULTS["counts"] = [num_users, num_movies, float(min_rating), float(max_rating)]

_order = np.random.default_rng(42).permutation(3000)
df = {k: v[_order] for k, v in df.items()}
x = np.stack([df["user"], df["movie"]], axis=1)
# Normalize the targets between 0 and 1. Makes it easy to train.
y = (lambda x: (x - min_rating) / (max_rating - min_rating))(df["rating"])
# Assuming training on 90% of the data and validating on 10%.
train_indices = int(0.9 * len(df["rating"]))
x_train, x_val, y_train, y_val = (
    x[:train_indices],
    x[train_indices:],
    y[:train_indices],
    y[train_indices:],
)

EMBEDDING_SIZE = 50


class RecommenderNet(keras.Model):
    def __init__(self, num_users, num_movies, embedding_size, **kwargs):
        super(RecommenderNet, self).__init__(**kwargs)
        self.num_users = num_users
        self.num_movies = num_movies
        self.embedding_size = embedding_size
        self.user_embedding = layers.Embedding(
            num_users,
            embedding_size,
            embeddings_initializer="he_normal",
            embeddings_regularizer=keras.regularizers.l2(1e-6),
        )
        self.user_bias = layers.Embedding(num_users, 1)
        self.movie_embedding = layers.Embedding(
            num_movies,
            embedding_size,
            embeddings_initializer="he_normal",
            embeddings_regularizer=keras.regularizers.l2(1e-6),
        )
        self.movie_bias = layers.Embedding(num_movies, 1)

    def call(self, inputs):
        user_vector = self.user_embedding(inputs[:, 0])
        user_bias = self.user_bias(inputs[:, 0])
        movie_vector = self.movie_embedding(inputs[:, 1])
        movie_bias = self.movie_bias(inputs[:, 1])
        dot_user_movie = tf.tensordot(user_vector, movie_vector, 2)
        # Add all the components (including bias)
        x = dot_user_movie + user_bias + movie_bias
        # The sigmoid activation forces the rating to between 0 and 1
        return tf.nn.sigmoid(x)


model = RecommenderNet(num_users, num_movies, EMBEDDING_SIZE)
model.compile(
    loss=tf.keras.losses.BinaryCrossentropy(),
    optimizer=keras.optimizers.Adam(learning_rate=0.001),
)

history = model.fit(
    x=x_train,
    y=y_train,
    batch_size=64,
    epochs=3,
    verbose=0,
    validation_data=(x_val, y_val),
)
RESULTS["loss"] = history.history["loss"]
RESULTS["val_loss"] = history.history["val_loss"]

# Let us get a user and see the top recommendations.
user_id = df["userId"][0]
_watched = df["userId"] == user_id
movies_watched_by_user = {k: v[_watched] for k, v in df.items()}
movies_not_watched = movie_df["movieId"][
    ~np.isin(movie_df["movieId"], movies_watched_by_user["movieId"])
]
movies_not_watched = list(
    set(movies_not_watched.tolist()).intersection(set(movie2movie_encoded.keys()))
)
movies_not_watched = [[movie2movie_encoded.get(x)] for x in movies_not_watched]
user_encoder = user2user_encoded.get(user_id)
user_movie_array = np.hstack(
    ([[user_encoder]] * len(movies_not_watched), movies_not_watched)
)
ratings = model.predict(user_movie_array, verbose=0).flatten()
top_ratings_indices = ratings.argsort()[-10:][::-1]
recommended_movie_ids = [
    movie_encoded2movie.get(movies_not_watched[x][0]) for x in top_ratings_indices
]
RESULTS["ratings"] = ratings
RESULTS["recommended_movie_ids"] = recommended_movie_ids

print("Showing recommendations for user: {}".format(user_id))
print("====" * 9)
print("Movies with high ratings from user")
print("----" * 8)
_by_rating = np.argsort(-movies_watched_by_user["rating"], kind="stable")
top_movies_user = movies_watched_by_user["movieId"][_by_rating][:5]
_rows = np.isin(movie_df["movieId"], top_movies_user)
for title, genres in zip(movie_df["title"][_rows], movie_df["genres"][_rows]):
    print(title, ":", genres)

print("----" * 8)
print("Top 10 movie recommendations")
print("----" * 8)
_rows = np.isin(movie_df["movieId"], recommended_movie_ids)
for title, genres in zip(movie_df["title"][_rows], movie_df["genres"][_rows]):
    print(title, ":", genres)
RESULTS["recommended_titles"] = movie_df["title"][_rows]
