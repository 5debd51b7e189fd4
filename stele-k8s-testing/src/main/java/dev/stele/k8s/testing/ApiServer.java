package dev.stele.k8s.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscoveryBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * fabric8's CRUD mock API server, extended with what a production client (the operator with
 * server-side apply on, kubectl) asks of a real one:
 *
 * <ul>
 *   <li><b>Discovery</b> ({@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/G/V}): the
 *       built-in types below, and every CRD created in the server.
 *   <li><b>Apply patches</b> ({@code application/apply-patch+yaml}, on an object or its {@code
 *       /status}): an absent object is created; into an existing one the applied configuration is
 *       merged (RFC 7386) and the result stored as an update would be, and a field the same field
 *       manager applied last time and leaves out now is removed, as a real server removes fields a
 *       manager gives up.
 *   <li><b>SelfSubjectRulesReview</b>: every verb on every resource. The server authorizes
 *       everything (no RBAC), and says so to a client that asks what it may do (java-operator-sdk's
 *       leader election asks about Leases before it starts).
 *   <li><b>{@code pods/exec}</b>: a WebSocket upgrade speaking the channel protocol, where what a
 *       command does in a container is what the test says ({@link #onExec}); a missing pod or
 *       container is refused as a real server refuses it ({@link ExecEndpoint}).
 * </ul>
 *
 * <p>Simplified, compared with a real server: one owner per field is not tracked across managers
 * (an apply always wins, as with {@code force=true}: no conflicts are ever reported); lists are
 * atomic (replaced whole, where a real server merges {@code listType: map} lists by key); {@code
 * managedFields} are not written into objects. The stele operator is the only field manager of the
 * fields it applies, so none of this changes what it sees.
 *
 * <p>Concurrency: requests come on the mock server's threads; applies are serialized (each reads,
 * then writes conditionally on the version it read, so a write by another client in between fails
 * the apply with 409 instead of being lost), and the CRUD dispatcher locks its own store.
 */
public final class ApiServer implements Closeable {
  private static final String APPLY = "application/apply-patch+yaml";
  private static final String RULES_REVIEW =
      "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern OBJECT = Pattern.compile("^(/apis?/.+?)/([a-z0-9.-]+)(/status)?$");

  /** group/version, plural, kind, namespaced: the built-in types the server lists. */
  private record Type(String groupVersion, String plural, String kind, boolean namespaced) {}

  private static final List<Type> BUILT_IN =
      List.of(
          new Type("v1", "namespaces", "Namespace", false),
          new Type("v1", "secrets", "Secret", true),
          new Type("v1", "configmaps", "ConfigMap", true),
          new Type("v1", "serviceaccounts", "ServiceAccount", true),
          new Type("v1", "pods", "Pod", true),
          new Type("v1", "persistentvolumeclaims", "PersistentVolumeClaim", true),
          new Type("v1", "services", "Service", true),
          new Type("v1", "events", "Event", true),
          new Type("apps/v1", "deployments", "Deployment", true),
          new Type("apps/v1", "daemonsets", "DaemonSet", true),
          new Type("rbac.authorization.k8s.io/v1", "roles", "Role", true),
          new Type("rbac.authorization.k8s.io/v1", "rolebindings", "RoleBinding", true),
          new Type("rbac.authorization.k8s.io/v1", "clusterroles", "ClusterRole", false),
          new Type(
              "rbac.authorization.k8s.io/v1", "clusterrolebindings", "ClusterRoleBinding", false),
          new Type("coordination.k8s.io/v1", "leases", "Lease", true),
          new Type(
              "apiextensions.k8s.io/v1",
              "customresourcedefinitions",
              "CustomResourceDefinition",
              false));

  private final KubernetesMockServer server;
  private final ExecEndpoint exec = new ExecEndpoint();
  private final Dispatcher dispatcher = new Dispatcher(exec);

  /** A server on a free port of the loopback interface. */
  public ApiServer() {
    this(0);
  }

  /** A server on {@code port} of the loopback interface (0: any free one). */
  public ApiServer(int port) {
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    try {
      server.init(InetAddress.getLoopbackAddress(), port);
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot start the test API server on port " + port, e);
    }
  }

  /** A new client of this server; its caller closes it. */
  public KubernetesClient client() {
    return server.createClient();
  }

  /** {@code http://localhost:PORT}: the loopback interface. */
  public String url() {
    return "http://" + server.getHostName() + ":" + server.getPort();
  }

  /**
   * What running a command in a container does from now on ({@code pods/exec}). Until a test says,
   * every command fails as one a container lacks does (exit code 127).
   */
  public void onExec(ExecHandler handler) {
    exec.handler(handler);
  }

  @Override
  public void close() {
    server.destroy();
    exec.close();
  }

  private static final class Dispatcher extends KubernetesCrudDispatcher {
    /** The configuration last applied, by object path (status separately) and field manager. */
    private final Map<String, JsonNode> lastApplied = new ConcurrentHashMap<>();

    private final ExecEndpoint exec;

    Dispatcher(ExecEndpoint exec) {
      this.exec = exec;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getPath();
      String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
      if (ExecEndpoint.matches(request.getMethod(), bare)) {
        return exec.answer(request, bare, this::handleGet);
      }
      if (request.getMethod().equals("GET")) {
        MockResponse discovery = discovery(bare);
        if (discovery != null) {
          return discovery;
        }
      }
      if (request.getMethod().equals("POST") && bare.equals(RULES_REVIEW)) {
        ObjectNode review = (ObjectNode) tree(request.getUtf8Body());
        ObjectNode rule = JSON.createObjectNode();
        rule.putArray("verbs").add("*");
        rule.putArray("apiGroups").add("*");
        rule.putArray("resources").add("*");
        ObjectNode status = review.putObject("status");
        status.putArray("resourceRules").add(rule);
        status.putArray("nonResourceRules");
        status.put("incomplete", false);
        return json(201, review.toString());
      }
      String type = request.getHeader("Content-Type");
      if (request.getMethod().equals("PATCH") && type != null && type.startsWith(APPLY)) {
        return apply(request, path, bare);
      }
      return super.dispatch(request);
    }

    /**
     * One apply at a time (a read, then a write conditional on the version read): a write by
     * another client in between makes this apply fail with 409, where a real server would merge.
     */
    private synchronized MockResponse apply(RecordedRequest request, String path, String bare) {
      Matcher m = OBJECT.matcher(bare);
      if (!m.matches()) {
        return json(400, "{\"kind\":\"Status\",\"message\":\"not an object: " + bare + "\"}");
      }
      JsonNode applied =
          JSON.valueToTree(SERIALIZATION.unmarshal(request.getUtf8Body(), Map.class));
      String manager = query(path, "fieldManager");
      String key = bare + " " + manager;
      MockResponse live = handleGet(m.group(1) + "/" + m.group(2));
      MockResponse response;
      if (live.code() == 404 && m.group(3) == null) {
        response = super.dispatch(request("POST", m.group(1), "application/json", applied));
      } else if (live.code() != 200) {
        return live;
      } else {
        // RFC 7386 applied here: the mock's own merge patch keeps null map values.
        JsonNode merged =
            mergeInto(tree(live.getBody().readUtf8()), mergePatch(lastApplied.get(key), applied));
        response = super.dispatch(request("PUT", bare, "application/json", merged));
      }
      if (response.code() < 300) {
        lastApplied.put(key, applied);
      }
      return response;
    }

    private @Nullable MockResponse discovery(String path) {
      if (path.equals("/api")) {
        return json(200, SERIALIZATION.asJson(new APIVersionsBuilder().withVersions("v1").build()));
      }
      if (path.equals("/apis")) {
        var groups = new APIGroupListBuilder();
        for (String gv : groupVersions()) {
          if (!gv.equals("v1")) {
            var version =
                new GroupVersionForDiscoveryBuilder()
                    .withGroupVersion(gv)
                    .withVersion(gv.substring(gv.indexOf('/') + 1))
                    .build();
            groups.addToGroups(
                new APIGroupBuilder()
                    .withName(gv.substring(0, gv.indexOf('/')))
                    .withVersions(version)
                    .withPreferredVersion(version)
                    .build());
          }
        }
        return json(200, SERIALIZATION.asJson(groups.build()));
      }
      String gv =
          path.equals("/api/v1")
              ? "v1"
              : path.matches("^/apis/[^/]+/[^/]+$") ? path.substring("/apis/".length()) : null;
      if (gv == null || !groupVersions().contains(gv)) {
        return null;
      }
      var list = new APIResourceListBuilder().withGroupVersion(gv);
      for (Type t : types()) {
        if (t.groupVersion().equals(gv)) {
          list.addToResources(
              new APIResourceBuilder()
                  .withName(t.plural())
                  .withKind(t.kind())
                  .withNamespaced(t.namespaced())
                  .withSingularName("")
                  .withVerbs("create", "delete", "get", "list", "patch", "update", "watch")
                  .build());
        }
      }
      return json(200, SERIALIZATION.asJson(list.build()));
    }

    private List<String> groupVersions() {
      List<String> out = new ArrayList<>();
      for (Type t : types()) {
        if (!out.contains(t.groupVersion())) {
          out.add(t.groupVersion());
        }
      }
      return out;
    }

    /** The built-in types and those of every CRD in the server. */
    private List<Type> types() {
      List<Type> out = new ArrayList<>(BUILT_IN);
      MockResponse crds = handleGet("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
      if (crds.code() == 200) {
        var list =
            SERIALIZATION.unmarshal(crds.getBody().readUtf8(), CustomResourceDefinitionList.class);
        for (CustomResourceDefinition crd : list.getItems()) {
          var spec = crd.getSpec();
          for (var v : spec.getVersions()) {
            out.add(
                new Type(
                    spec.getGroup() + "/" + v.getName(),
                    spec.getNames().getPlural(),
                    spec.getNames().getKind(),
                    "Namespaced".equals(spec.getScope())));
          }
        }
      }
      return out;
    }
  }

  /**
   * The JSON merge patch (RFC 7386) that turns what a manager applied before into what it applies
   * now: every field of {@code now}, and null for each field of {@code before} that {@code now}
   * leaves out. Lists are values: replaced whole.
   */
  private static JsonNode mergePatch(@Nullable JsonNode before, JsonNode now) {
    if (!(now instanceof ObjectNode n) || !(before instanceof ObjectNode b)) {
      return now;
    }
    ObjectNode patch = n.deepCopy();
    for (Iterator<String> names = b.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!n.has(name)) {
        patch.set(name, NullNode.getInstance());
      } else {
        patch.set(name, mergePatch(b.get(name), n.get(name)));
      }
    }
    return patch;
  }

  /** {@code patch} merged into {@code target} (RFC 7386): null removes, objects merge. */
  private static JsonNode mergeInto(JsonNode target, JsonNode patch) {
    if (!(patch instanceof ObjectNode p)) {
      return patch;
    }
    ObjectNode out = target instanceof ObjectNode t ? t.deepCopy() : JSON.createObjectNode();
    for (Map.Entry<String, JsonNode> f : p.properties()) {
      if (f.getValue().isNull()) {
        out.remove(f.getKey());
      } else {
        out.set(f.getKey(), mergeInto(out.get(f.getKey()), f.getValue()));
      }
    }
    return out;
  }

  private static RecordedRequest request(String method, String path, String type, JsonNode body) {
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    Headers headers =
        Headers.builder()
            .add("Content-Type", type)
            .add("Content-Length", Integer.toString(bytes.length))
            .build();
    return new RecordedRequest(
        method + " " + path + " HTTP/1.1",
        io.fabric8.mockwebserver.dsl.HttpMethod.valueOf(method),
        path,
        headers,
        new Buffer(bytes));
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse()
        .setResponseCode(code)
        .addHeader("Content-Type", "application/json")
        .setBody(body);
  }

  private static String query(String path, String name) {
    int q = path.indexOf('?');
    Map<String, String> params = new LinkedHashMap<>();
    if (q >= 0) {
      for (String pair : path.substring(q + 1).split("&", -1)) {
        int eq = pair.indexOf('=');
        params.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
      }
    }
    return params.getOrDefault(name, "");
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
