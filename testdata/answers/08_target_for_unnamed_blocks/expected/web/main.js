const API = "/api/v2";

async function loadTodos() {
  const res = await fetch(`${API}/todos`);
  if (!res.ok) {
    throw new Error(`loading todos: HTTP ${res.status}`);
  }
  return res.json();
}

function render(todos) {
  const list = document.querySelector("#todos");
  list.innerHTML = "";
  for (const todo of todos) {
    const li = document.createElement("li");
    li.textContent = todo.title;
    li.classList.toggle("done", todo.done);
    list.appendChild(li);
  }
}

loadTodos()
  .then(render)
  .catch((err) => {
    document.querySelector("#error").textContent = err.message;
  });
