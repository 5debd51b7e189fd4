package dev.stele.s3;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.StringJoiner;

/**
 * AWS Signature Version 4 for S3: the {@code Authorization} header of one request, from its method,
 * path, query, the headers to sign and the hash of its payload. See docs/s3.md, "The client".
 *
 * <p>Concurrency: stateless.
 */
final class SigV4 {
  static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
  static final String EMPTY_PAYLOAD =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private SigV4() {}

  /** {@code x-amz-date}'s form of {@code now}. */
  static String stamp(Instant now) {
    return STAMP.format(now);
  }

  /**
   * The {@code Authorization} header value.
   *
   * @param path the request's path, already URI-encoded as it is sent
   * @param query the query's parameters, not encoded
   * @param headers the headers to sign, names in lower case, among them {@code host}, {@code
   *     x-amz-date} and {@code x-amz-content-sha256}
   */
  static String authorization(
      AwsKeys credentials,
      String region,
      String method,
      String path,
      SortedMap<String, String> query,
      SortedMap<String, String> headers,
      String payloadHash) {
    String stamp = Objects.requireNonNull(headers.get("x-amz-date"), "x-amz-date");
    String day = stamp.substring(0, 8);
    StringBuilder canonical = new StringBuilder();
    canonical.append(method).append('\n').append(path).append('\n');
    canonical.append(canonicalQuery(query)).append('\n');
    StringJoiner signed = new StringJoiner(";");
    for (Map.Entry<String, String> h : headers.entrySet()) {
      canonical.append(h.getKey()).append(':').append(h.getValue().strip()).append('\n');
      signed.add(h.getKey());
    }
    canonical.append('\n').append(signed).append('\n').append(payloadHash);
    String scope = day + "/" + region + "/s3/aws4_request";
    String toSign =
        "AWS4-HMAC-SHA256\n"
            + stamp
            + "\n"
            + scope
            + "\n"
            + hex(Hashes.of("SHA-256", canonical.toString().getBytes(StandardCharsets.UTF_8)));
    byte[] key =
        Hashes.hmacSha256(("AWS4" + credentials.secretKey()).getBytes(StandardCharsets.UTF_8), day);
    key = Hashes.hmacSha256(key, region);
    key = Hashes.hmacSha256(key, "s3");
    key = Hashes.hmacSha256(key, "aws4_request");
    return "AWS4-HMAC-SHA256 Credential="
        + credentials.accessKey()
        + "/"
        + scope
        + ", SignedHeaders="
        + signed
        + ", Signature="
        + hex(Hashes.hmacSha256(key, toSign));
  }

  /** The query as signed and sent: names sorted, names and values encoded, {@code &}-joined. */
  static String canonicalQuery(SortedMap<String, String> query) {
    StringJoiner joined = new StringJoiner("&");
    query.forEach((name, value) -> joined.add(encode(name, true) + "=" + encode(value, true)));
    return joined.toString();
  }

  /**
   * RFC 3986 encoding as SigV4 wants it: unreserved characters as they are, every other byte of the
   * UTF-8 form as {@code %XX}; {@code /} too unless it separates a path's segments.
   */
  static String encode(String s, boolean slash) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xFF;
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~'
          || (c == '/' && !slash)) {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
      }
    }
    return out.toString();
  }

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
