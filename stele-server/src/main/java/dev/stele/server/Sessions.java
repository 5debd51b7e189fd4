package dev.stele.server;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Logged-in sessions, in memory: a random token (the cookie's value, or a bearer token for the
 * CLI), the user, and a CSRF token bound to the session. A session ends after {@code idle} without
 * a request, or {@code absolute} after its login, whichever comes first; a restart ends them all.
 * Tokens are kept as their SHA-256 digests, so a heap dump holds none.
 *
 * <p>Concurrency: safe for the server's threads (a concurrent map; a session's last use is
 * volatile).
 */
final class Sessions {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** One session: who, its CSRF token, and when it ends. */
  static final class Session {
    final String user;
    final String csrf;
    final Instant created;
    volatile Instant lastUsed;

    Session(String user, String csrf, Instant created) {
      this.user = user;
      this.csrf = csrf;
      this.created = created;
      this.lastUsed = created;
    }

    /** Whether {@code token} is this session's CSRF token, compared in constant time. */
    boolean csrfMatches(@Nullable String token) {
      return token != null && MessageDigest.isEqual(Users.sha256(csrf), Users.sha256(token));
    }
  }

  /** A new session and its token, which only the client that logged in ever sees. */
  record Created(String token, Session session, Instant expires) {}

  private final Clock clock;
  private final Duration idle;
  private final Duration absolute;
  private final Map<String, Session> byDigest = new ConcurrentHashMap<>();

  Sessions(Clock clock, Duration idle, Duration absolute) {
    this.clock = clock;
    this.idle = idle;
    this.absolute = absolute;
  }

  Created create(String user) {
    Instant now = clock.instant();
    byDigest.values().removeIf(s -> expired(s, now));
    String token = random();
    Session session = new Session(user, random(), now);
    byDigest.put(digest(token), session);
    return new Created(token, session, now.plus(absolute));
  }

  /** The live session of {@code token}, now used again; null if none or it has expired. */
  @Nullable Session find(String token) {
    String key = digest(token);
    Session s = byDigest.get(key);
    Instant now = clock.instant();
    if (s == null) {
      return null;
    }
    if (expired(s, now)) {
      byDigest.remove(key);
      return null;
    }
    s.lastUsed = now;
    return s;
  }

  void end(String token) {
    byDigest.remove(digest(token));
  }

  private boolean expired(Session s, Instant now) {
    return !now.isBefore(s.lastUsed.plus(idle)) || !now.isBefore(s.created.plus(absolute));
  }

  private static String random() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private static String digest(String token) {
    return HexFormat.of().formatHex(Users.sha256(token));
  }
}
