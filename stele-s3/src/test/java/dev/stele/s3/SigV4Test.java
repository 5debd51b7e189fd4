package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The signer against the examples AWS publishes for S3's SigV4 (header-based authentication). */
class SigV4Test {
  private static final AwsKeys EXAMPLE =
      new AwsKeys("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", null);

  private static SortedMap<String, String> headers(String... pairs) {
    SortedMap<String, String> headers = new TreeMap<>();
    headers.put("host", "examplebucket.s3.amazonaws.com");
    headers.put("x-amz-date", "20130524T000000Z");
    headers.put("x-amz-content-sha256", SigV4.EMPTY_PAYLOAD);
    for (int i = 0; i < pairs.length; i += 2) {
      headers.put(pairs[i], pairs[i + 1]);
    }
    return headers;
  }

  private static String signature(String authorization) {
    return authorization.substring(authorization.indexOf("Signature=") + 10);
  }

  @Test
  void getObjectWithARange() {
    String authorization =
        SigV4.authorization(
            EXAMPLE,
            "us-east-1",
            "GET",
            "/test.txt",
            new TreeMap<>(),
            headers("range", "bytes=0-9"),
            SigV4.EMPTY_PAYLOAD);
    assertThat(authorization)
        .startsWith(
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                + " SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=");
    assertThat(signature(authorization))
        .isEqualTo("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  }

  @Test
  void aSubresourceWithoutAValue() {
    String authorization =
        SigV4.authorization(
            EXAMPLE,
            "us-east-1",
            "GET",
            "/",
            new TreeMap<>(Map.of("lifecycle", "")),
            headers(),
            SigV4.EMPTY_PAYLOAD);
    assertThat(signature(authorization))
        .isEqualTo("fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  }

  @Test
  void aListingWithParametersInSortedOrder() {
    String authorization =
        SigV4.authorization(
            EXAMPLE,
            "us-east-1",
            "GET",
            "/",
            new TreeMap<>(Map.of("prefix", "J", "max-keys", "2")),
            headers(),
            SigV4.EMPTY_PAYLOAD);
    assertThat(signature(authorization))
        .isEqualTo("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  }

  @Test
  void encodingKeepsUnreservedCharactersAndSlashesOfAPath() {
    assertThat(SigV4.encode("a b/c~d_e.f-g", false)).isEqualTo("a%20b/c~d_e.f-g");
    assertThat(SigV4.encode("a b/c", true)).isEqualTo("a%20b%2Fc");
    assertThat(SigV4.encode("ü=&+*", true)).isEqualTo("%C3%BC%3D%26%2B%2A");
  }

  @Test
  void credentialsNeverShowTheirSecret() {
    assertThat(EXAMPLE.toString()).contains("AKIAIOSFODNN7EXAMPLE").doesNotContain("wJalr");
  }
}
