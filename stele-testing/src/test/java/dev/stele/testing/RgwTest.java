package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class RgwTest {
  @Test
  void gatewayAnswersOnLoopback() throws Exception {
    Rgw rgw = Rgw.shared();
    assertThat(rgw.endpoint().getHost()).isEqualTo("127.0.0.1");
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(rgw.endpoint() + "/")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("ListAllMyBucketsResult");
  }
}
