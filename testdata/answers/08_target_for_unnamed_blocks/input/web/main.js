const API = "/api/v1";

async function loadTodos() {
  const res = await fetch(`${API}/todos`);
  return res.json();
}

function render(todos) {
  const list = document.querySelector("#todos");
  list.innerHTML = "";
  for (const todo of todos) {
    const li = document.createElement("li");
    li.textContent = todo.title;
    list.appendChild(li);
  }
}

loadTodos().then(render);
